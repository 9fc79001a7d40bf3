import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryClaimStore } from "../../src/adapters/memory/memory-claim-store.js";
import { FileClaimStore } from "../../src/adapters/local/file-claim-store.js";
import { claimStoreContract } from "./claim-store.contract.js";

claimStoreContract("memory", async () => new MemoryClaimStore());
claimStoreContract("file system", async () => new FileClaimStore(await mkdtemp(join(tmpdir(), "bosun-claims-"))));
