// `npm run schema`: regenerates schema/bosun-config.schema.json from the zod schema.
// test/unit/config/config-json-schema.test.ts fails when the committed file is stale.
import { writeFileSync } from "node:fs";
import { configJsonSchemaText } from "../src/core/config/config-json-schema.js";

writeFileSync(new URL("../schema/bosun-config.schema.json", import.meta.url), configJsonSchemaText());
