/**
 * The request is not a valid guided request (the server answers 400, as vLLM does). Its own file so the thread
 * that reads traces can name it without loading the grammar engine (xgrammar stays in the worker's bundle).
 */
export class GuidedRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GuidedRequestError';
  }
}
