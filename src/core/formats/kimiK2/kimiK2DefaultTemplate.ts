/**
 * A Kimi K2 chat template written for Toolscope from the documented format (Moonshot's tool-call guide):
 * tools declared as `<|im_system|>tool_declare<|im_middle|>{json}<|im_end|>`, roles as
 * `<|im_user|>` / `<|im_assistant|>` / `<|im_system|>` + name + `<|im_middle|>`, assistant calls inside the
 * section markup, tool results as `## Return of {id}`, and the generation prompt
 * `<|im_assistant|>assistant<|im_middle|>`. Used when the user has not pointed Toolscope at their model's own
 * template; the replay records which template rendered the prompt.
 */
export const KIMI_K2_DEFAULT_TEMPLATE = `{%- macro content_text(message) -%}
{%- if message.content is string -%}{{ message.content }}
{%- elif message.content is not none -%}{%- for part in message.content -%}{%- if part.type == 'text' -%}{{ part.text }}{%- endif -%}{%- endfor -%}
{%- endif -%}
{%- endmacro -%}
{%- if tools -%}<|im_system|>tool_declare<|im_middle|>{{ tools | tojson }}<|im_end|>{%- endif -%}
{%- if messages | length == 0 or messages[0].role != 'system' -%}<|im_system|>system<|im_middle|>You are Kimi, an AI assistant created by Moonshot AI.<|im_end|>{%- endif -%}
{%- for message in messages -%}
{%- set name = message.name if message.name else message.role -%}
{%- if message.role == 'user' -%}<|im_user|>{{ name }}<|im_middle|>
{%- elif message.role == 'assistant' -%}<|im_assistant|>{{ name }}<|im_middle|>
{%- else -%}<|im_system|>{{ name }}<|im_middle|>
{%- endif -%}
{%- if message.role == 'tool' -%}## Return of {{ message.tool_call_id }}
{{ content_text(message) }}
{%- else -%}{{ content_text(message) }}
{%- endif -%}
{%- if message.role == 'assistant' and message.tool_calls -%}<|tool_calls_section_begin|>
{%- for call in message.tool_calls -%}<|tool_call_begin|>{{ call.id }}<|tool_call_argument_begin|>{%- if call.function.arguments is string -%}{{ call.function.arguments }}{%- else -%}{{ call.function.arguments | tojson }}{%- endif -%}<|tool_call_end|>
{%- endfor -%}<|tool_calls_section_end|>
{%- endif -%}<|im_end|>
{%- endfor -%}
{%- if add_generation_prompt -%}<|im_assistant|>assistant<|im_middle|>{%- endif -%}`;
