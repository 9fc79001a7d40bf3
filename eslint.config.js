// Lint keeps the core pure (no IO, clock, randomness or process), the layers in order, the imports
// acyclic, and the async code honest.
import tseslint from "typescript-eslint";
import importX, { createNodeResolver } from "eslint-plugin-import-x";

/** Only claim stores mint claim tokens: everyone else gets one from ClaimStore.claim(). */
const mintToken = { group: ["**/mint-claim-token.js"], message: "Only claim stores mint claim tokens; get one from ClaimStore.claim()." };

/** What the pure layers (core, and the ports both faces and adapters stand on) may not import. */
const outsidePure = ["node:*", "fs", "path", "child_process", "http", "https", "os", "crypto", "probot", "@octokit/*", "@actions/*", "**/adapters/**", "**/app/**", "**/action/**", "**/cli/**"];

/**
 * The layers, lowest first (docs/ARCHITECTURE.md): core ← ports ← adapters ← faces (app, action,
 * cli). An import may only point down; the three faces never import each other.
 */
const layers = [
  { files: ["src/core/**/*.ts"], forbidden: [...outsidePure, "**/ports/**"], message: "src/core is pure: no IO, ports, adapters, GitHub or Node modules." },
  { files: ["src/ports/**/*.ts"], forbidden: outsidePure, message: "src/ports declares interfaces over src/core only: no IO, adapters or faces." },
  { files: ["src/adapters/**/*.ts"], forbidden: ["**/app/**", "**/action/**", "**/cli/**"], message: "src/adapters stand below the faces: move the port to src/ports instead." },
  { files: ["src/app/**/*.ts"], forbidden: ["**/action/**", "**/cli/**"], message: "the App face does not import another face: share through src/adapters or src/ports." },
  { files: ["src/action/**/*.ts"], forbidden: ["**/app/**", "**/cli/**"], message: "the Action face does not import another face: share through src/adapters or src/ports." },
  { files: ["src/cli/**/*.ts"], forbidden: ["**/app/**", "**/action/**"], message: "the CLI face does not import another face: share through src/adapters or src/ports." },
];

export default tseslint.config(
  { ignores: ["node_modules/", "lib/", "dist/", "coverage/", "**/*.js", "!eslint.config.js", "test/fixtures/lint-*/**"] },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "import-x": importX },
    settings: {
      // The rules that follow imports parse the files they reach: .ts with TypeScript's parser.
      "import-x/extensions": [".ts", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      // Resolve `./x.js` to `./x.ts` as tsc does: a resolver that cannot find the file checks no cycle at all.
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".js", ".json"], extensionAlias: { ".js": [".ts", ".js"] } })],
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Type imports count: a cycle of types is a tangle of modules all the same.
      "import-x/no-cycle": ["error", { maxDepth: Infinity }],
      eqeqeq: ["error", "always"],
      "no-restricted-imports": ["error", { patterns: [mintToken] }],
    },
  },
  ...layers.map(({ files, forbidden, message }) => ({
    files,
    rules: { "no-restricted-imports": ["error", { patterns: [mintToken, { group: forbidden, message }] }] },
  })),
  // Claim stores mint the tokens they grant; their layer's rule still holds.
  ...[
    { files: ["src/adapters/*/*-claim-store.ts"], layer: layers[2] },
    { files: ["src/core/claims/**/*.ts"], layer: layers[0] },
  ].map(({ files, layer }) => ({ files, rules: { "no-restricted-imports": ["error", { patterns: [{ group: layer.forbidden, message: layer.message }] }] } })),
  {
    files: ["src/core/**/*.ts", "src/ports/**/*.ts"],
    rules: {
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
