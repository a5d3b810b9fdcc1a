/**
 * Rebuilds the raw completion from what the upstream sent: `/v1/completions` text and legacy logprobs (vLLM's
 * `token_id:N` tokens become ids), or chat logprobs (`choices[0].logprobs.content`, text rebuilt from each token's
 * `bytes` so characters split across tokens come out whole). Only choice 0, as the importers read it.
 */
import { tokensFromLogprobs } from '../../core/trace/importers/completionsImporter.ts';
import type { Completion, RecordedToken } from '../../core/trace/record.ts';
import type { CaptureRoute } from './tokenCapturePlan.ts';

export interface CollectedCompletion {
  /** The raw completion, when the tokens are known to be all of them (or, for /v1/completions, the text). */
  completion: Completion | null;
  tokenCount: number;
  /** true: every generated token was seen; false: some are missing; null: nothing tells. */
  complete: boolean | null;
  /** Why the tokens are not recorded as the completion. */
  reason?: string;
}

const TOKEN_ID = /^token_id:(\d+)$/u;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function token(text: string): RecordedToken {
  const m = TOKEN_ID.exec(text);
  return m?.[1] !== undefined ? { id: Number(m[1]), text: '' } : { text };
}

function isByteArray(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255);
}

export class CompletionCollector {
  private text = '';
  private readonly bytes: Buffer[] = [];
  private readonly tokens: RecordedToken[] = [];
  private finish: string | null = null;
  private sawChoice = false;
  /** /v1/completions chunks with text but no token data. */
  private gaps = 0;
  private problem: string | null = null;
  private usageTokens: number | null = null;

  constructor(
    private readonly route: CaptureRoute,
    private readonly streamed: boolean,
  ) {}

  /** One stream chunk, or the whole response body (parsed, as the upstream sent it). */
  add(payload: unknown): void {
    if (!isObject(payload)) return;
    if (isObject(payload.usage) && typeof payload.usage.completion_tokens === 'number') this.usageTokens = payload.usage.completion_tokens;
    const choices = Array.isArray(payload.choices) ? payload.choices : [];
    const choice: unknown = choices.find((c: unknown) => isObject(c) && (c.index ?? 0) === 0);
    if (!isObject(choice)) return;
    this.sawChoice = true;
    if (typeof choice.finish_reason === 'string') this.finish = choice.finish_reason;
    if (this.route === 'completions') this.addCompletions(choice);
    else this.addChat(choice);
  }

  private addCompletions(choice: Record<string, unknown>): void {
    const text = typeof choice.text === 'string' ? choice.text : '';
    this.text += text;
    const tokens = tokensFromLogprobs(choice.logprobs, 'choices[0].logprobs');
    if (typeof tokens === 'string') this.problem ??= tokens;
    else if (tokens) this.tokens.push(...tokens);
    else if (text !== '') this.gaps++;
  }

  private addChat(choice: Record<string, unknown>): void {
    // A chunk without logprobs is no gap by itself: parsers flush held-back output in chunks of their own.
    const logprobs = choice.logprobs;
    const content = isObject(logprobs) ? logprobs.content : undefined;
    if (!Array.isArray(content)) return;
    for (const [i, entry] of content.entries()) {
      if (!isObject(entry) || typeof entry.token !== 'string') {
        this.problem ??= `logprobs.content[${i}] has no "token" string`;
        continue;
      }
      const t = token(entry.token);
      if (typeof entry.logprob === 'number') t.logprob = entry.logprob;
      if (Array.isArray(entry.top_logprobs) && entry.top_logprobs.length) {
        t.top = entry.top_logprobs.flatMap((alt: unknown) =>
          isObject(alt) && typeof alt.token === 'string' && typeof alt.logprob === 'number'
            ? [{ ...token(alt.token), logprob: alt.logprob }]
            : [],
        );
      }
      this.tokens.push(t);
      this.bytes.push(isByteArray(entry.bytes) ? Buffer.from(entry.bytes) : Buffer.from(t.text, 'utf8'));
    }
  }

  result(): CollectedCompletion {
    const count = this.tokens.length;
    if (this.route === 'completions') {
      if (!this.sawChoice) return { completion: null, tokenCount: 0, complete: null, reason: 'no choice in the response' };
      const completion: Completion = { text: this.text, finish_reason: this.finish };
      if (this.problem) return { completion, tokenCount: count, complete: false, reason: `tokens not recorded: ${this.problem}` };
      if (!count) return { completion, tokenCount: 0, complete: null };
      if (this.gaps)
        return {
          completion,
          tokenCount: count,
          complete: false,
          reason: `${this.gaps} chunk(s) carried text without logprobs; tokens not recorded`,
        };
      return { completion: { text: this.text, tokens: this.tokens, finish_reason: this.finish }, tokenCount: count, complete: true };
    }
    if (!count) return { completion: null, tokenCount: 0, complete: null };
    const text = Buffer.concat(this.bytes).toString('utf8');
    let complete: boolean | null = this.streamed ? null : true;
    let reason: string | undefined;
    if (this.problem) {
      complete = false;
      reason = this.problem;
    } else if (this.usageTokens !== null) {
      complete = this.usageTokens === count;
      if (!complete)
        reason = `the engine generated ${this.usageTokens} tokens but sent logprobs for ${count}: a streamed chat skips the tokens its tool or reasoning parser holds back (use /v1/completions, or stream: false, for the raw completion)`;
    } else if (this.streamed) {
      reason = "a streamed chat may skip the tokens the server's parser holds back, and this stream has no usage count to check against";
    }
    if (complete !== true) return { completion: null, tokenCount: count, complete, reason: reason ?? 'incomplete' };
    return { completion: { text, tokens: this.tokens, finish_reason: this.finish }, tokenCount: count, complete };
  }

  /** The tokens' text, for records that keep incomplete tokens aside. */
  partialText(): string {
    return this.route === 'completions' ? this.text : Buffer.concat(this.bytes).toString('utf8');
  }
}
