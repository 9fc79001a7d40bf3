import { loginFromEmail } from "../separation/identity.js";

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
 * its author is its committer, as their noreply addresses name them: a writer who signs with their
 * own key and names the bot as author (or as committer, under their own address) is not the bot.
 */
export function commitSigner(commit: SignedCommitFacts): string | undefined {
  if (!commit.verified) return undefined;
  // Only the address says whose key signed: GitHub verifies against the account that owns the
  // committer's email, and the name is free text (a person signing with their own key under their
  // own address could name the bot). An App's bot commits as `<id>+<slug>[bot]@users.noreply.github.com`.
  const author = loginFromEmail(commit.author.email);
  return author !== undefined && author === loginFromEmail(commit.committer.email) ? author : undefined;
}
