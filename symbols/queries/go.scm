; Go. Earlier patterns win when several match one node, so the specific
; type kinds come before the catch-all "class" for other named types.
(package_clause (package_identifier) @package)

(function_declaration name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @receiver
             (pointer_type (type_identifier) @receiver)
             (generic_type type: (type_identifier) @receiver)
             (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name) @definition.method

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.class
; An alias is a class to LSP clients, as gopls reports it.
(type_alias name: (type_identifier) @name) @definition.class

; Methods an interface declares.
(method_elem name: (field_identifier) @name) @definition.method
