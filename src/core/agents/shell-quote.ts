/** Quotes one word for `/bin/sh`: single quotes, with each `'` closed, escaped and reopened. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
