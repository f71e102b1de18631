/**
 * What a call reads and what it changes, as far as can be proven: a tool a
 * config names as read-only or a `bash` command the allowlist proves only
 * reads (`shell/`) changes nothing (one that reads `/proc`, `/sys` or `/dev`
 * asks no question twice, but writes nothing either); a navigation tool only
 * moves a view; a `bash` command that only writes files names them, placed
 * (`paths.ts`). What is not proven to only read may change anything. For the
 * rules that ask whether a call asks again what an earlier one asked, with
 * nothing changed between.
 */
import type { ToolCall } from './arguments.ts'
import { isSystem, type Placed, placeAll, ReadPlaces } from './paths.ts'
import { anyOf } from './patterns.ts'
import { shellArguments, shellCommand } from './shell/command.ts'
import { isRecord, kept } from './values.ts'

/**
 * The tools that show a file's content by position, as `cat` and `sed -n` do in `bash`: dsh's
 * `read`, and its peers among the default read-only tools.
 */
const VIEW_TOOLS = new Set(['read', 'Read', 'read_file'])

/**
 * The tools taken to only read the workspace by default: dsh's own file
 * readers (`read`, `read_image`, `grep`, `glob`), and the readers of harnesses
 * whose sessions are replayed as dsh logs: Claude Code's, Gemini CLI's and
 * SWE-agent's searches. Not a job's output, nor the web: what they read
 * changes by itself.
 */
export const READ_ONLY_TOOLS = [
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

/** What a call reads and changes. */
export interface Reads {
  /**
   * Whether it changes nothing a later call reads: a read-only or navigation tool, or a `bash`
   * command that only reads.
   */
  readOnly: boolean
  /** Whether its tool only moves a view (a navigation tool): its result depends on where the view is. */
  navigation: boolean
  /** Whether it shows content by position (`cat`, `sed -n`, dsh's `read`) rather than answering a question. */
  view: boolean
  /** For a view: the files it shows. */
  files: readonly string[]
  /** For a `bash` read: its folder and operands, the question it asks; otherwise undefined. */
  question: string | undefined
  /** For a `bash` read: the paths it may read, placed; otherwise undefined. */
  paths: ReadPlaces | undefined
  /** For a `bash` command that changes nothing but files: the files it writes, placed; otherwise undefined. */
  writes: Placed
}

/** How the tools a config names are told apart: those that only read, and those that only move a view. */
interface ToolKinds {
  readOnly: (tool: string) => boolean
  navigation: (tool: string) => boolean
}

/** Whether two calls are `bash` reads asking the same question: the same operands in the same folder. */
export function sameQuestion(a: Reads, b: Reads): boolean {
  return a.question !== undefined && a.question === b.question
}

/** Whether a call (`c`) views another file than `read` does, or moves a view (a navigation tool). */
export function viewsOther(c: Reads, read: Reads): boolean {
  if (c.navigation) return true
  return c.view && !c.files.some((file) => read.files.includes(file))
}

/**
 * Whether a call that only writes files (`between`) leaves alone what a `bash` read (`asked`)
 * reads: no path it writes is, holds or lies in a path the read may read (`paths.ts`).
 */
export function untouched(asked: Reads, between: Reads): boolean {
  // Paths are known only for a bash read.
  if (asked.paths === undefined || between.writes === undefined) return false
  return !asked.paths.changedBy(between.writes)
}

/**
 * The file a view tool's call shows: its `file_path` (dsh's `read`, Claude Code's `Read`) or `path`
 * (Gemini CLI's `read_file`).
 */
function pathOf(args: unknown): string[] {
  const path = isRecord(args) ? (args.file_path ?? args.path) : undefined
  return typeof path === 'string' ? [path] : []
}

/** What a call to `tool` with `args` reads and changes, its tool judged by `kinds`. */
function readsOf(tool: string, args: unknown, kinds: ToolKinds): Reads {
  const shell = shellArguments(tool, args)
  const command = shell === undefined ? undefined : shellCommand(shell.command)
  const folder = typeof shell?.workdir === 'string' ? shell.workdir : ''
  const navigation = kinds.navigation(tool)
  // A read in `/proc`, `/sys` or `/dev` reads what changes by itself.
  const reads = command?.readOnly === true && ![...command.paths, '.'].some((path) => isSystem(path, folder))
  return {
    readOnly: navigation || kinds.readOnly(tool) || reads,
    navigation,
    view: command?.view === true || VIEW_TOOLS.has(tool),
    // Read only for a view: a bash view's files, a view tool's path.
    files: command?.files ?? pathOf(args),
    question: reads ? `${folder}\n\n${command.question}` : undefined,
    paths: reads ? new ReadPlaces(command.paths, folder) : undefined,
    writes: command?.writes === undefined ? undefined : placeAll(command.writes, folder),
  }
}

/** Which parts of a config say what a call reads: the tools that only read, and those that only move a view. */
export interface KindsBy {
  readOnlyTools: readonly string[]
  navigationTools: readonly string[]
}

/** Each config's judge of calls, made once per config object: the rules that ask share it. */
const judges = new WeakMap<KindsBy, (call: ToolCall) => Reads>()

/**
 * What a call reads and changes under `config` ({@link readsOf}): worked out once per call object,
 * however many rules ask, so that a `bash` command is read once.
 */
export function readsUnder(config: KindsBy): (call: ToolCall) => Reads {
  return kept(judges, config, () => {
    const kinds: ToolKinds = { readOnly: anyOf(config.readOnlyTools), navigation: anyOf(config.navigationTools) }
    const known = new WeakMap<ToolCall, Reads>()
    return (call) => kept(known, call, () => readsOf(call.tool, call.args, kinds))
  })
}
