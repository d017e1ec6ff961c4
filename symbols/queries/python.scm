; Python. A function directly inside a class becomes a method.
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
