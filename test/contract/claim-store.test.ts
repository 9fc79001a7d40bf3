import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryClaimStore } from "../../src/adapters/memory/memory-claim-store.js";
import { FileClaimStore } from "../../src/adapters/local/file-claim-store.js";
import { claimStoreContract } from "./claim-store.contract.js";

claimStoreContract("memory", async () => new MemoryClaimStore());
// No holder shows life here: the contract is about leases; the liveness rule has its own test (reclaim-liveness).
claimStoreContract("file system", async () => new FileClaimStore(await mkdtemp(join(tmpdir(), "bosun-claims-")), undefined, { lives: () => false }));
