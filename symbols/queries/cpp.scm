; C++ (and C headers). Functions are found through their declarator, which
; may be wrapped in pointer or reference declarators and qualified
; (Foo::bar, whose scope becomes the container). Methods declared in a
; class body count: headers are where a class's interface is read.
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.namespace
(class_specifier name: [(type_identifier) (template_type) (qualified_identifier)] @name body: (field_declaration_list)) @definition.class
(struct_specifier name: [(type_identifier) (template_type) (qualified_identifier)] @name body: (field_declaration_list)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type

(function_definition
  declarator: [(function_declarator) (pointer_declarator) (reference_declarator)] @declarator) @definition.function
(field_declaration_list
  (field_declaration declarator: [(function_declarator)
                                  (pointer_declarator (function_declarator))
                                  (reference_declarator (function_declarator))] @declarator) @definition.method)
(field_declaration_list
  (declaration declarator: (function_declarator) @declarator) @definition.method)
