// Loaded into a drain with --import when no tmpfs can be mounted: once the file named by
// BOSUN_TEST_ENOSPC_FLAG exists, every write under BOSUN_TEST_ENOSPC_DIR fails with ENOSPC, as a
// full disk would. Only the write calls Bosun uses are patched; renames and unlinks still work.
import fs from "node:fs";
import fsp from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";

const dir = process.env.BOSUN_TEST_ENOSPC_DIR ?? "";
const flag = process.env.BOSUN_TEST_ENOSPC_FLAG ?? "";
const full = (path) => dir !== "" && String(path).startsWith(dir) && fs.existsSync(flag);
const enospc = (path) => Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: "ENOSPC", errno: -28, syscall: "write" });
for (const name of ["appendFileSync", "writeFileSync"]) {
  const original = fs[name];
  fs[name] = function (path, ...rest) {
    if (full(path)) throw enospc(path);
    return original.call(this, path, ...rest);
  };
}
for (const name of ["appendFile", "writeFile"]) {
  const original = fsp[name];
  fsp[name] = async function (path, ...rest) {
    if (full(path)) throw enospc(path);
    return original.call(this, path, ...rest);
  };
}
syncBuiltinESMExports();
