// A string as one word of a POSIX shell command line, for the commands nixshed writes out for
// someone to run (`nixshed trust DIR`, a `run` that reads on past a cut line).

/** `word` as one shell word: as it is when plain, else single-quoted. */
export const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);
