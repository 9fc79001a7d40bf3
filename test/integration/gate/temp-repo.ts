import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PassThrough } from "node:stream";
import type { CliIo } from "../../../src/cli/cli-io.js";

const GIT_ENV = { GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com", GIT_CONFIG_NOSYSTEM: "1", HOME: tmpdir() };

/** A real git repository in a temp folder, with helpers to write, rename and commit. */
export class TempRepo {
  readonly dir = mkdtempSync(join(tmpdir(), "bosun-test-repo-"));

  constructor() {
    this.git("init", "-q", "-b", "main");
  }

  git(...args: string[]): string {
    return execFileSync("git", args, { cwd: this.dir, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" });
  }

  write(path: string, content: string): this {
    mkdirSync(dirname(join(this.dir, path)), { recursive: true });
    writeFileSync(join(this.dir, path), content);
    return this;
  }

  move(from: string, to: string): this {
    mkdirSync(dirname(join(this.dir, to)), { recursive: true });
    renameSync(join(this.dir, from), join(this.dir, to));
    return this;
  }

  commit(message: string): this {
    this.git("add", "-A");
    this.git("commit", "-q", "-m", message);
    return this;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Lines of text, numbered, for files of a given size. */
export function lines(n: number, prefix = "line"): string {
  return Array.from({ length: n }, (_, i) => `${prefix} ${i}\n`).join("");
}

/** A CliIo over in-memory streams; `out()` and `err()` read what the command wrote. */
export function memoryIo(cwd: string, env: NodeJS.ProcessEnv = { PATH: process.env["PATH"] }): CliIo & { out(): string; err(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (b: Buffer) => (out += b.toString()));
  stderr.on("data", (b: Buffer) => (err += b.toString()));
  return { stdout, stderr, stdin: new PassThrough(), env, cwd, out: () => out, err: () => err };
}
