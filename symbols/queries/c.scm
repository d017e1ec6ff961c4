; C. Functions are found through their declarator, which may be wrapped in
; pointer declarators (char *f(void)). Prototypes are not definitions.
(function_definition
  declarator: [(function_declarator) (pointer_declarator)] @declarator) @definition.function
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
