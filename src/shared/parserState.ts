/**
 * Where a parser stands, in one vocabulary for every format (the view colours tokens by it): plain content, a think
 * block, a tool-call section between calls, a call's header (id or name), a call's arguments.
 */
export type ParserState = 'content' | 'reasoning' | 'section' | 'call-id' | 'call-arguments';
