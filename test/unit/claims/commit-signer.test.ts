/**
 * Who GitHub vouches wrote a claim commit: GitHub verifies a signature against a key of the account
 * that owns the committer's EMAIL; the name is free text. Anyone with write access who signs with
 * their own key must not pass for the App's bot by naming it.
 */
import { describe, expect, it } from "vitest";
import { commitSigner } from "../../../src/core/claims/commit-signer.js";

const BOT = { name: "bosun[bot]", email: "41898282+bosun[bot]@users.noreply.github.com" };

describe("commitSigner", () => {
  it("an App's API commit, signed by GitHub, is its bot's", () => {
    expect(commitSigner({ verified: true, author: BOT, committer: BOT })).toBe("bosun");
    expect(commitSigner({ verified: true, author: { name: "bosun[bot]", email: "bosun[bot]@users.noreply.github.com" }, committer: { name: "bosun[bot]", email: "bosun[bot]@users.noreply.github.com" } })).toBe("bosun");
  });

  it("an unsigned commit, or one whose author is not its committer, is no one's", () => {
    expect(commitSigner({ verified: false, author: BOT, committer: BOT })).toBeUndefined();
    const mona = { name: "mona", email: "1+mona@users.noreply.github.com" };
    expect(commitSigner({ verified: true, author: BOT, committer: mona })).toBeUndefined();
  });

  it("a commit signed with a person's own key, under their own verified address, that names the bot is not the bot's", () => {
    const forged = { name: "bosun[bot]", email: "mallory@example.com" };
    expect(commitSigner({ verified: true, author: forged, committer: forged })).toBeUndefined();
  });
});
