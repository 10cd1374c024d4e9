const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a filter term is a record id (compared exactly) rather than text to search for. */
export const isUuid = (value: string): boolean => UUID.test(value);

/** `term` with ILIKE's % _ and \ escaped, so it matches literally. */
const literal = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** ILIKE pattern matching `term` literally anywhere. */
export const containsPattern = (term: string): string => `%${literal(term)}%`;

/** ILIKE pattern matching text that starts with `term`, literally. */
export const startsWithPattern = (term: string): string => `${literal(term)}%`;
