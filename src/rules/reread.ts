/**
 * A result the model already has (`rereads`): a read of files or folders that
 * returns what the same read, or a `bash` read asking the same in other words,
 * returned 2 to 6 calls back, with no call between them that could have
 * changed what it reads. Only a read of the workspace asks a question twice: a
 * `readOnlyTools` tool or a `bash` command the allowlist proves only reads;
 * never a job's output, a writer, a state setter, nor a read of what changes by
 * itself. Which calls change nothing: those reads, the `navigationTools`, and,
 * before a `bash` read, commands that only write files it does not name. Two
 * other commands that both came back empty are never one question. Two kinds
 * of repeat are left alone, as the labeled loops show them to be navigation:
 * any call to a navigation tool (its result depends on where the view is), and
 * a view of a file (`cat`, `sed -n`, `read`) coming back to it after viewing
 * another file.
 */
import type { Call, Comparison } from '../compare.ts'
import { isRecord } from '../values.ts'
import { isEmpty } from '../failures.ts'
import { JOB_READ, sameOutcome } from '../results.ts'
import { SHELL_TOOL, shellCommand } from '../shell/command.ts'
import type { Rule } from './rule.ts'

/** How far back a reread is looked for: a call that returns what one of the 6 calls before it returned. */
const REREAD_WINDOW = 6

/**
 * The tools that show a file's content by position, as `cat` and `sed -n` do in `bash`: dsh's
 * `read`, and its peers in the default `readOnlyTools`.
 */
const VIEW_TOOLS = new Set(['read', 'Read', 'read_file'])

/** What a call reads and changes, as this rule judges it. */
interface Reads {
  /**
   * Whether it changes nothing a later call reads: a read-only or navigation tool, or a `bash`
   * command that only reads.
   */
  readOnly: boolean
  /** Whether its tool only moves a view (`navigationTools`): its result depends on where the view is. */
  navigation: boolean
  /** Whether it shows content by position (`cat`, `sed -n`, dsh's `read`) rather than answering a question. */
  view: boolean
  /** For a view: the files it shows. */
  files: readonly string[]
  /** For a `bash` read: its folder and operands, the question it asks; otherwise undefined. */
  question: string | undefined
  /** For a `bash` command that changes nothing but files: the files it writes; otherwise undefined. */
  writes: readonly string[] | undefined
}

/** A reread found: how many calls back the call it repeats is, and that call when it asked in other words. */
interface Reread {
  back: number
  /**
   * The earlier call, when it differs from this one (a `bash` read asking the same question);
   * undefined for the same call.
   */
  otherWords: Call | undefined
  /** The earlier call it repeats. */
  earlier: Call
}

/** Where a call keeps what it reads and changes once this rule has worked it out: this module's alone. */
const READS = Symbol('reads')

/** Where a call is marked a reread (reminded or not): this module's alone. */
const REREAD = Symbol('reread')

/** A call as this rule sees it: what it reads once worked out, and whether it was a reread. */
type Read = Call & { [READS]?: Reads; [REREAD]?: true }

/**
 * The reread rule, under the comparison `compared`: it speaks at a call that starts no run, when
 * no reminder is due for it, and once per answer: a call that repeats a reread of itself is left to
 * the run and cycle rules.
 */
export function reread(compared: Comparison): Rule<Read[]> {
  return {
    phase: 'advice',
    start: (call) => [call],
    copy: (history) => [...history],
    step(history, { call, found, reminded }) {
      const hit = !reminded && found!.run === 1 ? findReread(history, call, compared) : undefined
      if (hit !== undefined) (call as Read)[REREAD] = true
      history.push(call)
      if (history.length > REREAD_WINDOW) history.shift()
      if (hit === undefined || ((hit.earlier as Read)[REREAD] === true && hit.otherWords === undefined))
        return undefined
      const { back, otherWords } = hit
      const { run } = found!
      return {
        kind: 'reread',
        calls: [call],
        run,
        length: 2,
        measured: 2,
        complete: true,
        resumed: false,
        back,
        otherWords,
      }
    },
  }
}

/**
 * The latest of the calls in `history` (oldest first, at most
 * {@link REREAD_WINDOW}) that `call` asks again with the same outcome, when no
 * call between them could have changed anything; undefined for none. A `bash`
 * command is parsed only once a call with the same outcome is found, and at
 * most once per call.
 */
function findReread(history: readonly Call[], call: Call, compared: Comparison): Reread | undefined {
  // The call one back is the run rules' to judge: a reread repeats one 2 to 6 calls back.
  for (let i = history.length - 2; i >= 0; i--) {
    const earlier = history[i]!
    // Another tool's call is neither the same call nor a bash read of the same question: left to sameQuestion.
    if (!sameOutcome(earlier.seen, call.seen)) continue
    const identical = compared.sameCall(earlier, call)
    // Two other commands that both came back empty are weak evidence of one question: some sources lose output.
    if (!identical && (isEmpty(call.seen!) || !sameQuestion(earlier, call, compared))) continue
    // Only a read of the workspace asks a question twice: a job's output, a writer's result or a view moved by a
    // navigation tool can change with nothing between.
    const question = reads(call, compared)
    if (!question.readOnly || question.navigation || call.tool === JOB_READ) return undefined
    // The latest such call decides: whatever lies between it and this one also lies between any earlier one and this.
    const between = history.slice(i + 1)
    if (!between.every((c) => reads(c, compared).readOnly || untouched(question, reads(c, compared)))) return undefined
    // A view coming back to a file after viewing another file is navigation.
    if (question.view && between.some((c) => viewsOther(c, call, compared))) return undefined
    return { back: history.length - i, otherWords: identical ? undefined : earlier, earlier }
  }
  return undefined
}

/** Whether two calls are `bash` reads asking the same question: the same operands in the same folder. */
function sameQuestion(a: Call, b: Call, compared: Comparison): boolean {
  const question = reads(a, compared).question
  return question !== undefined && question === reads(b, compared).question
}

/** Whether `c` views another file than `call` does, or moves a view (a navigation tool). */
function viewsOther(c: Call, call: Call, compared: Comparison): boolean {
  const seen = reads(c, compared)
  if (seen.navigation) return true
  const files = reads(call, compared).files
  return seen.view && !seen.files.some((file) => files.includes(file))
}

/**
 * Whether a call that only writes files (`between`) leaves alone what a `bash` read (`asked`)
 * reads: it writes none of the paths the read names.
 */
function untouched(asked: Reads, between: Reads): boolean {
  // A question is asked only by a bash read.
  if (asked.question === undefined || between.writes === undefined) return false
  const named = asked.question.split('\n')
  return between.writes.every(
    (path) => !named.some((n) => n === path || n.endsWith(`/${path}`) || path.endsWith(`/${n}`)),
  )
}

/**
 * The file a view tool's call shows: its `file_path` (dsh's `read`, Claude Code's `Read`) or `path`
 * (Gemini CLI's `read_file`).
 */
function pathOf(args: unknown): string[] {
  const path = isRecord(args) ? (args.file_path ?? args.path) : undefined
  return typeof path === 'string' ? [path] : []
}

/** What a call reads and changes, worked out once per call and kept on it. */
function reads(call: Read, compared: Comparison): Reads {
  const known = call[READS]
  if (known !== undefined) return known
  const { tool, args } = call
  const shell = tool === SHELL_TOOL && isRecord(args) && typeof args.command === 'string' ? args : undefined
  const command = shell === undefined ? undefined : shellCommand(shell.command as string)
  const folder = typeof shell?.workdir === 'string' ? shell.workdir : ''
  const navigation = compared.navigation(tool)
  const found: Reads = {
    readOnly: navigation || compared.readOnly(tool) || command?.readOnly === true,
    navigation,
    view: command?.view === true || VIEW_TOOLS.has(tool),
    // Read only for a view: a bash view's files, a view tool's path.
    files: command?.files ?? pathOf(args),
    question: command?.readOnly === true ? `${folder}\n\n${command.question}` : undefined,
    writes: command?.writes,
  }
  call[READS] = found
  return found
}
