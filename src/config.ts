/**
 * The plugin's name and config: the `Config` interface, its schema with every
 * type, default and description (what schemastery cannot check, and the
 * words of each error, are in `checks.ts`), the
 * cross-field rules and unknown keys, and the rules a config switches on.
 * `Config(raw)` alone validates: nothing else in the package judges a config.
 */
import Schema from '@deepseek-ai/schemastery'
import { comparison } from './compare.ts'
import { Problem } from './problem.ts'
import { closest } from './quote.ts'
import { argumentEntries, distinctSorted, judge, type Must, type Option, option, reject } from './checks.ts'
import { name } from './name.ts'
import { cycle } from './rules/cycle.ts'
import { failure } from './rules/failure.ts'
import { poll } from './rules/poll.ts'
import { relapse } from './rules/relapse.ts'
import { reread } from './rules/reread.ts'
import type { AnyRule } from './rules/rule.ts'
import { run } from './rules/run.ts'

export { name } from './name.ts'

/** The largest `maxCyclePeriod`: the most calls apart that two calls the guard compares can be. */
export const LONGEST_CYCLE = 8

/**
 * What an operator can set; every field has a default. What each field means is said once, by its
 * description in {@link fields}.
 */
export interface Config {
  thresholds: number[]
  argumentsPreviewChars: number
  include: string[]
  exclude: string[]
  resultAware: boolean | string[]
  ignoreArguments: string[]
  relapse: boolean
  cycles: boolean
  maxCyclePeriod: number
  remindEvery: number
  blockAt: number
  maskNoise: boolean
  sameFailure: boolean
  rereads: boolean
  readOnlyTools: string[]
  navigationTools: string[]
}

/**
 * The tools `rereads` takes to only read the workspace by default: dsh's own
 * file readers (`read`, `read_image`, `grep`, `glob`), and the readers of
 * harnesses whose sessions are replayed as dsh logs: Claude Code's, Gemini
 * CLI's and SWE-agent's searches. Not a job's output, nor the web: what they
 * read changes by itself.
 */
const READ_ONLY_TOOLS = [
  'read',
  'read_image',
  'grep',
  'glob',
  'Read',
  'Grep',
  'Glob',
  'LS',
  'read_file',
  'read_many_files',
  'list_directory',
  'search_file_content',
  'search_file',
  'search_dir',
  'find_file',
]

/** A list of `*` patterns naming tools, as the error for a bad one says. */
const PATTERNS = 'must be a list of tool-name patterns (strings)'
const TRUE_OR_FALSE: Must = { value: 'must be true or false' }
const patterns = () => Schema.array(Schema.string().required())

/**
 * Every option: its schemastery type, default and description, and what its
 * error says. The description is the one place an option's meaning is
 * written: the flag help reads it, and a test checks the README's config table
 * against it. Unknown keys and cross-field rules are {@link Config}'s.
 */
const OPTIONS = {
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
  resultAware: option(
    Schema.union([Schema.boolean(), patterns()]),
    false,
    'Opt-in: a repeat counts only when its outcome repeats too: for every tool, or for the tools listed.',
    { value: 'must be true, false or a list of tool-name patterns (strings)' },
  ),
  ignoreArguments: option(
    Schema.transform(Schema.array(Schema.string().required()), argumentEntries),
    [],
    'Opt-in: `<tool pattern>.<argument>` entries left out when calls are compared.',
    {
      value: 'must be a list of <tool pattern>.<argument> entries',
      entry: 'entries must be strings like "bash.description"',
    },
  ),
  relapse: option(
    Schema.boolean(),
    false,
    'Opt-in: a run interrupted by other calls goes on when the call comes back.',
    TRUE_OR_FALSE,
  ),
  cycles: option(Schema.boolean(), false, 'Opt-in: also recognise repeating cycles of distinct calls.', TRUE_OR_FALSE),
  maxCyclePeriod: option(
    Schema.natural().min(2).max(LONGEST_CYCLE),
    4,
    'The longest cycle, in distinct calls, that `cycles` looks for.',
    { value: `must be an integer from 2 to ${LONGEST_CYCLE}` },
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
    'Opt-in: from this run length on, withhold every further call, denied ' +
      'before it runs where its result cannot decide the run; 0 never withholds.',
    { value: 'must be an integer at or above the last threshold, or 0 (never)' },
  ),
  maskNoise: option(
    Schema.boolean(),
    false,
    'Opt-in: outcomes are compared with durations, clock times, dates, ' +
      'process ids, temporary paths and long hex ids masked.',
    TRUE_OR_FALSE,
  ),
  sameFailure: option(
    Schema.boolean(),
    false,
    'Opt-in: calls to one tool that fail in a row with the same error text count as a run whatever their arguments.',
    TRUE_OR_FALSE,
  ),
  rereads: option(
    Schema.boolean(),
    false,
    'Opt-in: remind a read of files or folders that returns what the same read (or a `bash` read asking ' +
      'the same in other words) returned 2 to 6 calls back, with only reads between.',
    TRUE_OR_FALSE,
  ),
  readOnlyTools: option(
    patterns(),
    [...READ_ONLY_TOOLS],
    'For `rereads`: the tools that only read files and folders, as `*` patterns; `bash` commands are judged ' +
      'by an allowlist of commands and options.',
    { value: PATTERNS },
  ),
  navigationTools: option(
    patterns(),
    ['open', 'goto', 'scroll_up', 'scroll_down'],
    'For `rereads`: the tools that only move a view, whose results depend ' +
      'on where it is; they change nothing, and are never reminded as rereads.',
    { value: PATTERNS },
  ),
} satisfies Record<keyof Config, Option>

/** Every field with its schemastery type, default and description. */
export const fields = Schema.object(
  Object.fromEntries(Object.entries(OPTIONS).map(([key, { schema }]) => [key, schema])) as {
    [K in keyof Config]: Schema
  },
)

/** What an option means, as its schema describes it. */
export function meaning(key: keyof Config): string {
  return fields.dict![key]!.meta.description as string
}

/** An option's default, as its schema gives it. */
export function defaultOf(key: keyof Config): unknown {
  return fields.dict![key]!.meta.default
}

/** The option names, in the order the schema lists them. */
const KEYS = Object.keys(fields.dict!) as (keyof Config)[]

/**
 * The schema of {@link Config}: a bad value, an unknown key or a `blockAt` below
 * the last threshold throws at load with a message naming the field and value.
 */
export const Config: Schema<Partial<Config>, Config> = Schema.transform(Schema.any(), validate)
  .default({})
  .description('repeat-tool-reminder options; every field is optional.') as Schema<Partial<Config>, Config>

function validate(raw: unknown): Config {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) reject('config must be an object of options', raw)
  for (const key of Object.keys(raw)) {
    if (!Object.hasOwn(fields.dict!, key)) {
      const near = closest(key, KEYS)
      const hint = near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`
      throw new Problem(`unknown option ${JSON.stringify(key)}${hint}`, [name])
    }
  }
  const given: Record<string, unknown> = { ...raw }
  judge(OPTIONS, given)
  const config = fields(given) as Config
  const last = config.thresholds.at(-1)!
  if (config.blockAt > 0 && config.blockAt < last)
    reject(`blockAt must be an integer at or above the last threshold (${last})`, config.blockAt)
  return config
}

/**
 * The rules `config` switches on, in the order they judge a call: the identical run and the busy
 * poll always (the poll judges only calls whose outcomes are compared, `resultAware`: a job's
 * status is its outcome), each opt-in's rule when it is on. A new rule is one module and one line here.
 */
export function rulesOf(config: Config): AnyRule[] {
  const rules: (AnyRule | false)[] = [
    run,
    config.relapse && relapse,
    config.sameFailure && failure,
    poll(config.argumentsPreviewChars),
    config.cycles && cycle(config.maxCyclePeriod),
    config.rereads && reread(comparison(config)),
  ]
  return rules.filter((rule) => rule !== false)
}
