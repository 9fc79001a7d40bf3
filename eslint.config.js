// Lint keeps the core pure (no IO, clock, randomness or process) and the async code honest.
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";

const outsideCore = [
  "node:*",
  "fs",
  "path",
  "child_process",
  "http",
  "https",
  "os",
  "crypto",
  "probot",
  "@octokit/*",
  "@actions/*",
  "**/adapters/**",
  "**/app/**",
  "**/action/**",
  "**/cli/**",
];

export default tseslint.config(
  { ignores: ["node_modules/", "lib/", "dist/", "coverage/", "**/*.js", "!eslint.config.js"] },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "import-x": importX },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "import-x/no-cycle": ["error", { maxDepth: 10 }],
      eqeqeq: ["error", "always"],
      // Claim tokens come from a claim store's claim(), never from anywhere else.
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/mint-claim-token.js"], message: "Only claim stores mint claim tokens; get one from ClaimStore.claim()." }] }],
    },
  },
  {
    files: ["src/adapters/*/*-claim-store.ts", "src/core/claims/**/*.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: outsideCore, message: "src/core is pure: no IO, adapters, GitHub or Node modules." }] }],
      "no-restricted-globals": [
        "error",
        { name: "process", message: "src/core is pure: pass configuration in." },
        { name: "fetch", message: "src/core is pure: use a port." },
        { name: "setTimeout", message: "src/core is pure: time comes in as a value." },
        { name: "setInterval", message: "src/core is pure: time comes in as a value." },
        { name: "require", message: "src/core is pure." },
        { name: "console", message: "src/core is pure: return decisions, let the edge log." },
      ],
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "src/core is pure: time comes in as a value or a Clock." },
        { object: "Math", property: "random", message: "src/core is pure: randomness comes in as a seeded value." },
        { object: "performance", property: "now", message: "src/core is pure." },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "src/core is pure: `new Date()` reads the clock." },
      ],
    },
  },
);
