import { loginFromEmail, normalizeLogin } from "../separation/identity.js";

/** A commit as GitHub describes it: whether GitHub verified its signature, and its author and committer as written. */
export interface SignedCommitFacts {
  readonly verified: boolean;
  readonly author: { readonly name: string; readonly email: string };
  readonly committer: { readonly name: string; readonly email: string };
}

/**
 * Who GitHub vouches wrote a commit (normalized login), or undefined. GitHub verifies a signature
 * against the COMMITTER's keys, and signs an App's API commit only when it names no custom author
 * or committer, with both being the App's bot
 * (https://docs.github.com/en/authentication/managing-commit-signature-verification/about-commit-signature-verification,
 * "Signature verification for bots"). So a commit counts as the bot's only when it is verified and
 * its author is its committer: a writer who signs with their own key and names the bot as author
 * is not the bot.
 */
export function commitSigner(commit: SignedCommitFacts): string | undefined {
  if (!commit.verified) return undefined;
  const who = (p: { name: string; email: string }): string => loginFromEmail(p.email) ?? normalizeLogin(p.name);
  const author = who(commit.author);
  return author === who(commit.committer) ? author : undefined;
}
