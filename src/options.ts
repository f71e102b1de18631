/**
 * The options every rule shares: when a reminder is due, which calls are
 * tracked and how two of them are compared, and what is withheld. Each rule's
 * own options are declared in its module and listed by the registry
 * (`rules/index.ts`); `config.ts` puts the two together and validates.
 */
import Schema from '@deepseek-ai/schemastery'
import { argumentEntries, distinctSorted, type Must, option, type Values } from './checks.ts'
import { READ_ONLY_TOOLS } from './reads.ts'

/** A list of `*` patterns naming tools, as the error for a bad one says. */
const PATTERNS = 'must be a list of tool-name patterns (strings)'

/** What the error of a boolean option says. */
export const TRUE_OR_FALSE: Must = { value: 'must be true or false' }

/** A list of tool-name patterns, as a type. */
const patterns = () => Schema.array(Schema.string().required())

/** The shared options, in the order the schema, `--help` and the docs list them. */
export const SHARED = {
  thresholds: option(
    Schema.transform(Schema.array(Schema.natural().min(2).required()).min(1), distinctSorted),
    [3, 5, 8],
    'Run lengths at which a reminder is due; the first gets the short text, later ones the detailed text.',
    { value: 'must be a non-empty list of integers >= 2', entry: 'must be integers >= 2' },
  ),
  argumentsPreviewChars: option(
    Schema.natural().min(1),
    500,
    'Most characters of arguments a detailed reminder quotes; calls are always compared whole.',
    { value: 'must be a positive integer' },
  ),
  include: option(patterns(), [], 'Tools to track, as `*` patterns; empty tracks every tool.', { value: PATTERNS }),
  exclude: option(patterns(), [], 'Tools never to track, as `*` patterns; wins over `include`.', { value: PATTERNS }),
  resultAware: option<boolean | string[]>(
    Schema.union([Schema.boolean(), patterns()]),
    false,
    'Opt-in: a repeat counts only when its outcome repeats too: for every tool, or for the tools listed.',
    { value: 'must be true, false or a list of tool-name patterns (strings)' },
    {
      scoped: {
        all: 'Opt-in: a repeat counts only when its outcome repeats too, for every tool.',
        tools: 'As --result-aware, for the matching tools only.',
      },
    },
  ),
  ignoreArguments: option(
    Schema.transform(Schema.array(Schema.string().required()), argumentEntries),
    [],
    'Opt-in: `<tool pattern>.<argument>` entries left out when calls are compared.',
    {
      value: 'must be a list of <tool pattern>.<argument> entries',
      entry: 'entries must be strings like "bash.description"',
    },
    { arg: 'TOOL.ARG' },
  ),
  remindEvery: option(
    Schema.natural(),
    0,
    'Opt-in: past the last threshold, remind again every this many repeats; 0 stays silent.',
    { value: 'must be an integer >= 0 (0 = silent after the last threshold)' },
  ),
  blockAt: option(
    Schema.natural(),
    0,
    'Opt-in: from this run length on, withhold each further call ' +
      '(before it runs where its result cannot matter); 0 never.',
    { value: 'must be an integer at or above the last threshold, or 0 (never)' },
  ),
  maskNoise: option(
    Schema.boolean(),
    false,
    'Opt-in: compare outcomes with durations, times, dates, process ids, temporary paths and long hex ids masked.',
    TRUE_OR_FALSE,
  ),
  navigationTools: option(
    patterns(),
    ['open', 'goto', 'scroll_up', 'scroll_down'],
    'Tools that only move a view (`*` patterns): never rereads or quick polls.',
    { value: PATTERNS },
  ),
  readOnlyTools: option(
    patterns(),
    [...READ_ONLY_TOOLS],
    'Tools that only read files and folders (`*` patterns; `bash` by an allowlist), for `rereads` and `reruns`.',
    { value: PATTERNS },
  ),
  waits: option(
    Schema.boolean(),
    false,
    'Opt-in: a call that waits (`sleep` of 1 s or more, `timeout`, `wait`, `job_output` `wait: true`) ' +
      'is never a run or cycle.',
    TRUE_OR_FALSE,
  ),
}

/** What the shared options hold once validated: what every rule's `make` may read. */
export type Shared = Values<typeof SHARED>
