/** A usage or input problem: exit status 2. */
export class InputError extends Error {}
