/** Toolscope's version where a build defines TOOLSCOPE_VERSION; `0.0.0-dev` otherwise. */
declare const TOOLSCOPE_VERSION: string | undefined;

export const toolVersion = () => (typeof TOOLSCOPE_VERSION === 'string' ? TOOLSCOPE_VERSION : '0.0.0-dev');
