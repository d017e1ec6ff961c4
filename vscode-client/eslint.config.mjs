// Lint: eslint's and typescript-eslint's recommended rules, strictly typed.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "out/", "node_modules/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      eqeqeq: "error",
      "no-console": "error",
    },
  },
);
