; Ruby. A def inside a class or module becomes its method.
(class name: [(constant) (scope_resolution name: (constant))] @name) @definition.class
(module name: [(constant) (scope_resolution name: (constant))] @name) @definition.module
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.method
