/** Qwen3-Coder's values are typed by the key/value kernel's schema lookup (kernel/parameterTypes.ts). */
export { ParameterTypes, stringValueJson, typedValueJson, type ParameterType } from '../kernel/parameterTypes.ts';
