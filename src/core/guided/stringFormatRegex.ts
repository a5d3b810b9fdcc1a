/**
 * The regular expression xgrammar 0.2.3 enforces for a JSON-schema string `format` (cpp/json_schema_converter.cc,
 * JSONFormatToRegexPattern), copied so the Qwen XML lowering can write a formatted top-level string as raw text the
 * way xgrammar's XML converter does. A format missing here is one xgrammar does not enforce either.
 */
const ATEXT = "[\\w!#$%&'*+/=?^`{|}~-]";
const DOT_STRING = `(${ATEXT}+(\\.${ATEXT}+)*)`;
const QUOTED_STRING = '\\\\"(\\\\[\\x20-\\x7E]|[\\x20\\x21\\x23-\\x5B\\x5D-\\x7E])*\\\\"';
const DOMAIN = '([A-Za-z0-9]([\\-A-Za-z0-9]*[A-Za-z0-9])?)((\\.[A-Za-z0-9][\\-A-Za-z0-9]*[A-Za-z0-9])*)';
const DATE = '\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[1-2]\\d|3[01])';
const TIME = '([01]\\d|2[0-3]):[0-5]\\d:([0-5]\\d|60)(\\.\\d+)?(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d)';
const DEC_BYTE = '(25[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)';
const IPV4_PART = '((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])';
const IPV6 =
  '(' +
  [
    '([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}',
    '([0-9a-fA-F]{1,4}:){1,7}:',
    '([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}',
    '([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}',
    '([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}',
    '([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}',
    '([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}',
    '[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})',
    ':((:[0-9a-fA-F]{1,4}){1,7}|:)',
    `::(ffff(:0{1,4}){0,1}:){0,1}${IPV4_PART}`,
    `([0-9a-fA-F]{1,4}:){1,4}:${IPV4_PART}`,
  ].join('|') +
  ')';

const PCHAR = "([\\w\\.~!$&'()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])";
const QUERY_FRAGMENT_CHAR = "([\\w\\.~!$&'()*+,;=:@/\\?-]|%[0-9A-Fa-f][0-9A-Fa-f])*";
const QUERY = `(\\?${QUERY_FRAGMENT_CHAR})?`;
const FRAGMENT = `(#${QUERY_FRAGMENT_CHAR})?`;
const PATH_ABEMPTY = `(/${PCHAR}*)*`;
const USERINFO = "([\\w\\.~!$&'()*+,;=:-]|%[0-9A-Fa-f][0-9A-Fa-f])*";
const HOST = "([\\w\\.~!$&'()*+,;=-]|%[0-9A-Fa-f][0-9A-Fa-f])*";
const AUTHORITY = `(${USERINFO}@)?${HOST}(:\\d*)?`;
const URI_HIER_PART = `(//${AUTHORITY}${PATH_ABEMPTY}|/?(${PCHAR}+(/${PCHAR}*)*)?)`;
const SEGMENT_NZ_NC = "([\\w\\.~!$&'()*+,;=@-]|%[0-9A-Fa-f][0-9A-Fa-f])+";
const RELATIVE_PART = `(//${AUTHORITY}${PATH_ABEMPTY}|/(${PCHAR}+(/${PCHAR}*)*)?|${SEGMENT_NZ_NC}(/${PCHAR}*)*)?`;

const LITERALS = '([\\x21\\x23-\\x24\\x26\\x28-\\x3B\\x3D\\x3F-\\x5B\\x5D\\x5F\\x61-\\x7A\\x7E]|%[0-9A-Fa-f][0-9A-Fa-f])';
const VARCHAR = '(\\w|%[0-9A-Fa-f][0-9A-Fa-f])';
const VARSPEC = `${VARCHAR}(\\.?${VARCHAR})*(:[1-9]\\d?\\d?\\d?|\\*)?`;
const EXPRESSION = `\\{([+#\\./;\\?&=,!@|])?${VARSPEC}(,${VARSPEC})*\\}`;
const JSON_POINTER = '(/([\\x00-\\x2E]|[\\x30-\\x7D]|[\\x7F-\\U0010FFFF]|~[01])*)*';

const FORMAT_REGEX: Readonly<Record<string, string>> = {
  email: `^(${DOT_STRING}|${QUOTED_STRING})@${DOMAIN}$`,
  date: `^(${DATE})$`,
  time: `^${TIME}$`,
  'date-time': `^(${DATE})T${TIME}$`,
  duration:
    '^P((\\d+D|\\d+M(\\d+D)?|\\d+Y(\\d+M(\\d+D)?)?)(T(\\d+S|\\d+M(\\d+S)?|\\d+H(\\d+M(\\d+S)?)?))?|T(\\d+S|\\d+M(\\d+S)?|\\d+H(\\d+M(\\d+S)?)?)|\\d+W)$',
  ipv4: `^(${DEC_BYTE}\\.){3}${DEC_BYTE}$`,
  ipv6: IPV6,
  hostname: '^([a-z0-9]([a-z0-9-]*[a-z0-9])?)(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$',
  uuid: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$',
  uri: `^[a-zA-Z][a-zA-Z+\\.-]*:${URI_HIER_PART}${QUERY}${FRAGMENT}$`,
  'uri-reference': `^${RELATIVE_PART}${QUERY}${FRAGMENT}$`,
  'uri-template': `^(${LITERALS}|${EXPRESSION})*$`,
  'json-pointer': `^${JSON_POINTER}$`,
  'relative-json-pointer': `^(0|[1-9][0-9]*)(#|${JSON_POINTER})$`,
};

/** xgrammar's regex for a string format, or undefined for a format it does not enforce. */
export function stringFormatRegex(format: string): string | undefined {
  return Object.hasOwn(FORMAT_REGEX, format) ? FORMAT_REGEX[format] : undefined;
}
