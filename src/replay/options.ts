/**
 * What `repeat-tool-reminder replay` is asked for: the command line read into a
 * request, with the config file and the labels file it names loaded and
 * judged. A bad option or file is a {@link Problem} that names it, of the
 * command; nothing here reads a log.
 */
import { constants } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import { Config, name } from '../config.ts'
import { commandLine, configured } from './command-line.ts'
import { configFromFlags, configOptions, flagsHelp, helpRows } from '../flags.ts'
import { WIDTH, wrap } from '../wrap.ts'
import { readLabels, withRereads, type Labels } from './labels.ts'
import { Problem, sentence } from '../problem.ts'
import { configFrom } from './profile.ts'
import { grouped } from './text.ts'

/** What the command does, for its help. */
const DOES =
  "Replays recorded dsh sessions (the JSONL persistence backend's session.jsonl or session.jsonl.zstd, or a " +
  'directory searched for them) through the guard, one at a time, and reports identical runs and cycles, what ' +
  'the model did after each recorded reminder and withheld result, what the loops cost (in recorded tokens ' +
  'too), and the reminders and withheld results a config would produce next to the ones recorded.'

/** The command's own flags, after the config's, each help a sentence as theirs are. */
const OWN_FLAGS: readonly (readonly [string, string])[] = [
  [
    '--config FILE',
    "The config from a dsh profile's cordis.patch.yml, or a YAML or JSON config object; the flags above " +
      'override its keys.',
  ],
  ['--labels FILE', 'Score the config (and with --suggest each candidate) on labeled loops.'],
  [
    '--reread-labels FILE',
    'With --labels: labeled rereads too, judged for precision, and for the recall of rereads apart.',
  ],
  ['--suggest', 'Compare a few configs on the same sessions and recommend one.'],
  ['--top N', 'Detail the N sessions that looped most. Default 10.'],
  ['--all', 'Detail every session.'],
  ['--json', 'One JSON document on stdout, every session in it.'],
  ['-h, --help', 'Show this help.'],
  ['--version', 'Print the package and its version.'],
]

/** How the command ends, for its help. */
const EXIT =
  'Exit status: 0 when every input was read whole, 1 when any failed or was torn (its calls before the tear ' +
  'are reported) or a label names a call no log has, 2 for bad options, a bad config file or a bad labels file.'

/** The help text, `columns` wide: what the command does, every option, and the exit status. */
export function usage(columns = WIDTH): string {
  const prose = (text: string) => wrap(text, columns, 0).join('\n')
  return [
    ...wrap('Usage: repeat-tool-reminder replay <session file or sessions root>... [options]', columns),
    '',
    prose(DOES),
    '',
    'Options:',
    flagsHelp(32, columns),
    helpRows(OWN_FLAGS, 32, columns),
    '',
    prose(EXIT),
  ].join('\n')
}

/** What the command line asks for. */
export interface Request {
  config: Config
  /** The config keys the flags set, which override the config file's. */
  flags: Partial<Record<keyof Config, unknown>>
  /** With `--config`: the file the config comes from. */
  configFile: string | undefined
  paths: string[]
  /** The labels file, with `--labels`. */
  labels: string | undefined
  /** The rereads file, with `--reread-labels`. */
  rereads: string | undefined
  json: boolean
  suggest: boolean
  /** How many looping sessions the text report details; Infinity with `--all`. */
  top: number
}

/** What a request's files give: the config to replay with (the file's, under the flags), and the labels to score on. */
export interface Inputs {
  config: Config
  labels: Labels | undefined
}

/** Load what `request` names; throws a {@link Problem} of the command naming the first file that cannot be used. */
export async function loadInputs(request: Request): Promise<Inputs> {
  try {
    const config =
      request.configFile === undefined ? request.config : await loadConfig(request.configFile, request.flags)
    const labels = request.labels === undefined ? undefined : await loadLabels(request.labels)
    const rereads = request.rereads === undefined ? undefined : await loadLabels(request.rereads, true)
    // parse refuses --reread-labels without --labels.
    return { config, labels: rereads === undefined ? labels : addRereads(labels!, rereads) }
  } catch (error) {
    throw Problem.of(error).within(REPLAY)
  }
}

/** The loops' labels with the rereads added; throws a {@link Problem} of the rereads file when they overlap. */
function addRereads(loops: Labels, rereads: Labels): Labels {
  try {
    return withRereads(loops, rereads)
  } catch (error) {
    throw Problem.of(error).within(rereads.file)
  }
}

/** The most bytes a `--config` file may have: a config is a few hundred, a profile's patch file a few thousand. */
export const CONFIG_BYTES = 1 << 18

/** The most bytes a `--labels` file may have: about 150,000 episodes. */
const LABELS_BYTES = 16 << 20

/**
 * The text of `file`, which must be a regular file of at most `limit` bytes:
 * opened without blocking (a FIFO would never answer), anything else refused
 * before a byte is read, and never more than `limit` bytes read (a device
 * such as /dev/zero has no end). Throws a {@link Problem} saying what is wrong.
 */
async function readInput(file: string, limit: number): Promise<string> {
  let handle: FileHandle
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    throw new Problem(sentence(error))
  }
  try {
    if (!(await handle.stat()).isFile()) throw new Problem('not a regular file; replay reads only regular files')
    // One byte more than the limit tells a file that is too large, whatever its size said; a
    // regular file is read whole in one read.
    const buffer = Buffer.alloc(limit + 1)
    const { bytesRead } = await handle.read(buffer, 0, limit + 1, 0)
    if (bytesRead > limit)
      throw new Problem(`more than ${grouped(limit)} bytes, the most replay reads from such a file`)
    return new TextDecoder().decode(buffer.subarray(0, bytesRead))
  } finally {
    await handle.close()
  }
}

/**
 * The config `file` gives, with the keys the flags set over it, judged as the plugin judges it;
 * throws a {@link Problem} of the file when it cannot be used.
 */
async function loadConfig(file: string, flags: Request['flags']): Promise<Config> {
  let raw: Record<string, unknown>
  try {
    raw = configFrom(await readInput(file, CONFIG_BYTES))
    Config(raw as Partial<Config>)
  } catch (error) {
    throw Problem.of(error).at(file)
  }
  try {
    return Config({ ...raw, ...flags } as Partial<Config>)
  } catch (error) {
    throw Problem.of(error).at(`${file}, with the flags given`)
  }
}

/** Read and check a labels file; throws a {@link Problem} of the file when it cannot be used. */
async function loadLabels(file: string, rereads = false): Promise<Labels> {
  try {
    return readLabels(file, await readInput(file, LABELS_BYTES), rereads)
  } catch (error) {
    throw Problem.of(error).within(file)
  }
}

/**
 * What an error of the replay command starts with; one of the program itself (no command, another
 * command), with the program's name alone.
 */
export const REPLAY = `${name} replay`

/**
 * The request a command line makes, or what it asks to be told instead (`--help`, `--version`).
 * Throws a {@link Problem} naming a bad option.
 */
export function parse(argv: string[]): Request | 'help' | 'version' {
  const options = {
    ...configOptions,
    config: { type: 'string' },
    labels: { type: 'string' },
    'reread-labels': { type: 'string' },
    suggest: { type: 'boolean', default: false },
    top: { type: 'string' },
    all: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
    version: { type: 'boolean', default: false },
  } as const
  const { values, positionals } = commandLine(REPLAY, argv, options)
  if (values.help) return 'help'
  if (values.version) return 'version'
  const [verb, ...paths] = positionals
  if (verb === undefined)
    throw new Problem(
      'usage: repeat-tool-reminder replay <session file or sessions root>... [options] (--help for more)',
      [name],
    )
  if (verb !== 'replay')
    throw new Problem(
      `unknown command ${JSON.stringify(verb)}; try: repeat-tool-reminder replay <path>... (--help for more)`,
      [name],
    )
  if (paths.length === 0) throw new Problem('needs at least one session file or sessions root', [REPLAY])
  if (values['reread-labels'] !== undefined && values.labels === undefined)
    throw new Problem('--reread-labels needs --labels', [REPLAY])
  if (values.all && values.top !== undefined) throw new Problem('--top and --all do not go together', [REPLAY])
  const top = values.all ? Infinity : values.top === undefined ? 10 : Number(values.top)
  if (!values.all && (!/^\d+$/.test(values.top ?? '10') || top < 1))
    throw new Problem(`--top must be a positive integer (got ${JSON.stringify(values.top)})`, [REPLAY])
  // Judged alone first, so that a bad flag is named as such even beside a config file.
  return configured(REPLAY, () => {
    const flags = configFromFlags(values)
    return {
      config: Config(flags as Partial<Config>),
      flags,
      configFile: values.config,
      paths,
      labels: values.labels,
      rereads: values['reread-labels'],
      json: values.json,
      suggest: values.suggest,
      top,
    }
  })
}
