// A name in a line-per-entry text (a listing, a search's file headers, a kept file the agent pages
// by line numbers): a newline or carriage return in it, which a file name may hold, is written as
// \n or \r, so that each entry stays one line and the line numbers hold.
export const oneLine = (name: string): string => name.replace(/[\n\r]/g, (c) => (c === "\n" ? "\\n" : "\\r"));
