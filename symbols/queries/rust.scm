; Rust. Functions in an impl or trait become its methods; the impl names
; its type as the container.
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name) @definition.module
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(macro_definition name: (identifier) @name) @definition.function

(impl_item
  type: [(type_identifier) @scope.name
         (generic_type type: (type_identifier) @scope.name)
         (scoped_type_identifier name: (type_identifier) @scope.name)
         (generic_type type: (scoped_type_identifier name: (type_identifier) @scope.name))]) @scope
