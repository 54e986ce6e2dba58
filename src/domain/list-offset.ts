/**
 * The largest `offset` a paged list accepts. Far beyond any list the bank holds, yet small enough
 * for every database's integer type: a larger number is bad input (400), not a database error.
 */
export const MAX_LIST_OFFSET = 100_000_000;
