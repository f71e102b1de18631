/**
 * The plugin's name and config: the `Config` interface, its schema with every
 * default and description, and every rule a value must meet, the cross-field
 * ones and unknown keys included. `Config(raw)` alone validates: nothing else in
 * the package judges a config.
 */
import Schema from '@deepseek-ai/schemastery'
import { comparison } from './compare.ts'
import { Problem } from './problem.ts'
import { cycle } from './rules/cycle.ts'
import { failure } from './rules/failure.ts'
import { poll } from './rules/poll.ts'
import { relapse } from './rules/relapse.ts'
import { reread } from './rules/reread.ts'
import type { AnyRule } from './rules/rule.ts'
import { run } from './rules/run.ts'

/** The plugin name: the `cordis.yml` id, the reminders' source and the error prefix. */
export const name = 'repeat-tool-reminder'

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

/** Throw the error a person reads at load: the plugin, the rule broken and the value that broke it. */
function reject(rule: string, value: unknown): never {
  throw new Problem(`${rule} (got ${show(value)})`, [name])
}

/**
 * Every field with its rule, default and description; unknown keys and
 * cross-field rules are {@link Config}'s. The description is the one place an
 * option's meaning is written: the flag help reads it, and a test checks the
 * README's config table against it.
 */
export const fields = Schema.object({
  thresholds: field(
    thresholdList('thresholds'),
    [3, 5, 8],
    'Run lengths at which a reminder is due; the first gets the short text, later ones the detailed text.',
  ),
  argumentsPreviewChars: field(
    integerIn('argumentsPreviewChars', 1, Infinity, 'a positive integer'),
    500,
    'Most characters of arguments a detailed reminder quotes; calls are always compared whole.',
  ),
  include: field(patternList('include'), [], 'Tools to track, as `*` patterns; empty tracks every tool.'),
  exclude: field(patternList('exclude'), [], 'Tools never to track, as `*` patterns; wins over `include`.'),
  resultAware: field(
    boolOrPatterns('resultAware'),
    false,
    'Opt-in: a repeat counts only when its outcome repeats too: for every tool, or for the tools listed.',
  ),
  ignoreArguments: field(
    argumentList('ignoreArguments'),
    [],
    'Opt-in: `<tool pattern>.<argument>` entries left out when calls are compared.',
  ),
  relapse: field(bool('relapse'), false, 'Opt-in: a run interrupted by other calls goes on when the call comes back.'),
  cycles: field(bool('cycles'), false, 'Opt-in: also recognise repeating cycles of distinct calls.'),
  maxCyclePeriod: field(
    integerIn('maxCyclePeriod', 2, LONGEST_CYCLE, `an integer from 2 to ${LONGEST_CYCLE}`),
    4,
    'The longest cycle, in distinct calls, that `cycles` looks for.',
  ),
  remindEvery: field(
    integerIn('remindEvery', 0, Infinity, 'an integer >= 0 (0 = silent after the last threshold)'),
    0,
    'Opt-in: past the last threshold, remind again every this many repeats; 0 stays silent.',
  ),
  blockAt: field(
    integerIn('blockAt', 0, Infinity, 'an integer at or above the last threshold, or 0 (never)'),
    0,
    'Opt-in: from this run length on, withhold every further call, denied ' +
      'before it runs where its result cannot decide the run; 0 never withholds.',
  ),
  maskNoise: field(
    bool('maskNoise'),
    false,
    'Opt-in: outcomes are compared with durations, clock times, dates, ' +
      'process ids, temporary paths and long hex ids masked.',
  ),
  sameFailure: field(
    bool('sameFailure'),
    false,
    'Opt-in: calls to one tool that fail in a row with the same error text count as a run whatever their arguments.',
  ),
  rereads: field(
    bool('rereads'),
    false,
    'Opt-in: remind a read of files or folders that returns what the same read (or a `bash` read asking ' +
      'the same in other words) returned 2 to 6 calls back, with only reads between.',
  ),
  readOnlyTools: field(
    patternList('readOnlyTools'),
    [...READ_ONLY_TOOLS],
    'For `rereads`: the tools that only read files and folders, as `*` patterns; `bash` commands are judged ' +
      'by an allowlist of commands and options.',
  ),
  navigationTools: field(
    patternList('navigationTools'),
    ['open', 'goto', 'scroll_up', 'scroll_down'],
    'For `rereads`: the tools that only move a view, whose results depend ' +
      'on where it is; they change nothing, and are never reminded as rereads.',
  ),
})

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
  const config = fields({ ...raw }) as Config
  const last = config.thresholds.at(-1)!
  if (config.blockAt > 0 && config.blockAt < last)
    reject(`blockAt must be an integer at or above the last threshold (${last})`, config.blockAt)
  return config
}

/**
 * The known name a misspelled one most likely meant: same letters in another case, or at most a
 * third of its letters off; a config's keys, or a command line's options.
 */
export function closest<K extends string>(key: string, names: readonly K[]): K | undefined {
  let best: K | undefined
  let bestDistance = Math.max(1, Math.floor(key.length / 3)) + 1
  for (const known of names) {
    const distance = editDistance(key.toLowerCase(), known.toLowerCase())
    if (distance < bestDistance) {
      best = known
      bestDistance = distance
    }
  }
  return best
}

/** Levenshtein distance between two texts, in code units. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) {
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)))
    }
    row = next
  }
  return row[b.length]!
}

function field<T>(rule: (value: unknown) => T, fallback: T, description: string) {
  return Schema.transform(Schema.any(), rule).default(fallback).description(description)
}

/** The most characters of a value an error message quotes. */
const SHOWN = 80

/** Text already written, on the work stack of {@link show}. */
class Written {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/**
 * A value as an error quotes it: its JSON form (numbers and bigints as
 * JavaScript writes them), cut after {@link SHOWN} characters with an
 * ellipsis, and built only that far, so that a huge value, a YAML alias bomb
 * or a value that contains itself costs what a small one does.
 */
function show(value: unknown): string {
  let out = ''
  const work: unknown[] = [value]
  while (work.length > 0 && out.length <= SHOWN) {
    const item = work.pop()
    if (item instanceof Written) out += item.text
    else if (typeof item === 'string') out += JSON.stringify(item.slice(0, SHOWN + 1))
    else if (typeof item !== 'object' || item === null) out += String(item)
    else {
      const array = Array.isArray(item)
      const keys = array ? [] : Object.keys(item)
      const entries = array ? item.length : keys.length
      out += array ? '[' : '{'
      work.push(new Written(array ? ']' : '}'))
      // Pushed last first, and no more of them than the text can show.
      for (let i = Math.min(entries, SHOWN) - 1; i >= 0; i--) {
        const key = array ? '' : `${JSON.stringify(keys[i]!.slice(0, SHOWN + 1))}:`
        work.push(
          array ? item[i] : (item as Record<string, unknown>)[keys[i]!],
          new Written(`${i > 0 ? ',' : ''}${key}`),
        )
      }
    }
  }
  return out.length > SHOWN ? `${out.slice(0, SHOWN)}…` : out
}

function thresholdList(key: 'thresholds') {
  return (value: unknown): number[] => {
    if (!Array.isArray(value) || value.length === 0) reject(`${key} must be a non-empty list of integers >= 2`, value)
    for (const threshold of value) {
      if (!Number.isInteger(threshold) || threshold < 2) reject(`${key} must be integers >= 2`, threshold)
    }
    const sorted = [...(value as number[])].sort((a, b) => a - b)
    sorted.forEach((threshold, i) => {
      if (threshold === sorted[i - 1]) reject(`${key} must not repeat a value`, threshold)
    })
    return sorted
  }
}

function integerIn(key: keyof Config, min: number, max: number, rule: string) {
  return (value: unknown): number =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? (value as number)
      : reject(`${key} must be ${rule}`, value)
}

function bool(key: 'cycles' | 'relapse' | 'maskNoise' | 'sameFailure' | 'rereads') {
  return (value: unknown): boolean =>
    typeof value === 'boolean' ? value : reject(`${key} must be true or false`, value)
}

function patternList(key: 'include' | 'exclude' | 'resultAware' | 'readOnlyTools' | 'navigationTools') {
  return (value: unknown): string[] => {
    if (!Array.isArray(value) || !value.every((pattern) => typeof pattern === 'string')) {
      reject(`${key} must be a list of tool-name patterns (strings)`, value)
    }
    return [...(value as string[])]
  }
}

function boolOrPatterns(key: 'resultAware') {
  const patterns = patternList(key)
  return (value: unknown): boolean | string[] => {
    if (typeof value === 'boolean') return value
    if (!Array.isArray(value)) reject(`${key} must be true, false or a list of tool-name patterns (strings)`, value)
    return patterns(value)
  }
}

function argumentList(key: 'ignoreArguments') {
  return (value: unknown): string[] => {
    if (!Array.isArray(value)) reject(`${key} must be a list of <tool pattern>.<argument> entries`, value)
    for (const entry of value) {
      if (typeof entry !== 'string') reject(`${key} entries must be strings like "bash.description"`, entry)
      const dot = entry.lastIndexOf('.')
      if (dot < 0) reject(`${key} entries must be <tool pattern>.<argument>, with a dot before the argument`, entry)
      if (dot === 0) reject(`${key} entries need a tool pattern before the dot (* for every tool)`, entry)
      if (dot === entry.length - 1) reject(`${key} entries need an argument name after the dot`, entry)
    }
    return [...(value as string[])]
  }
}

/**
 * The rules `config` switches on, in the order they judge a call: the identical run and the busy
 * poll always, each opt-in's rule when it is on. A new rule is one module and one line here.
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
