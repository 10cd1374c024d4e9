/** The lines of a migration that drop or rename what older instances still read: [line, text]. */
export function destructiveLines(sqlText: string): Array<[number, string]>;
