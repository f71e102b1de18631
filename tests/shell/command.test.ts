import { describe, expect, it } from 'vitest'
import { LONGEST_COMMAND, shellCommand } from '../../src/shell/command.ts'
import { MOST_COMMANDS, MOST_WORDS } from '../../src/shell/lexer.ts'
import { sedPrints } from '../../src/shell/scripts.ts'

/** Whether a command is proven to only read; a command the lexer does not read is not. */
const readOnly = (command: string) => shellCommand(command)?.readOnly === true

describe('shellCommand: the commands and options known to only read', () => {
  it.each<[string, string]>([
    ['cat f | grep "def x"', 'def x\nf'],
    ["grep -n 'def x' f", 'def x\nf'],
    ['cd d && ls 2>/dev/null; git rev-parse HEAD >&2', 'HEAD\nd\nrev-parse'],
    ['nl -ba f.py | sed -n 10,20p', '10,20p\nf.py'],
    ['head -n 15 a.py', '15\na.py'],
    ['head -20 a.py', 'a.py'],
    ['wc -l < in.txt', 'in.txt'],
    ["find . -name '*.py' -type f | head", '*.py\n.\nf'],
    ['git -C repo --no-pager ls-tree -r HEAD', 'HEAD\nls-tree\nrepo'],
    ['git rev-parse --short HEAD', 'HEAD\nrev-parse'],
    ['git describe --abbrev --tags', 'describe'],
    ['git cat-file -p HEAD:a.txt', 'HEAD:a.txt\ncat-file'],
    // An option whose value is optional takes none but one attached: the next word is an operand.
    ['grep --color x f', 'f\nx'],
    ['ls --color d', 'd'],
    ['diff --unified a b', 'a\nb'],
    ['diff --unified=5 --context a b', 'a\nb'],
    ['sort --check f', 'f'],
    ['uniq --group in', 'in'],
    // sed's scripts, however given.
    ['sed -ne 10,20p f', '10,20p\nf'],
    ['sed -e10p f', '10p\nf'],
    ['sed -nEe p f', 'f\np'],
    ['sed -n -l 5 p f', 'f\np'],
    ['sed --line-length=5 -s --expression p f', 'f\np'],
    ['sed -n -- p f -', 'f\np'],
    ['sed --line-length 5 p f', 'f\np'],
    ['sed --expression', ''],
    ['sed --line-length=5 p f', 'f\np'],
    ['sed --quiet --posix p f', 'f\np'],
    ['"cat" f', 'f'],
    ['cat "x"*', 'x*'],
    // A glob that cannot start with `-`, a quoted one, and `[` the command.
    ['cat ./*.py', './*.py'],
    ['grep x src/*.py', 'src/*.py\nx'],
    ["cat '*'", '*'],
    ['[ -f a ]', ']\na'],
    // The system's folders, named only in passing: /dev/null, a name that merely starts alike, a climb elsewhere.
    ['cat /dev/null', '/dev/null'],
    ['cat /procedures/a', '/procedures/a'],
    ['cat ../README.md', '../README.md'],
    ['find . -newer a', '.\na'],
    ['grep -rn --include=*.py x .', '.\nx'],
    ['[ -f a.txt ] && cat a.txt', ']\na.txt'],
    ['ls \\\n  -la', ''],
    ['# only a comment\nls', ''],
    ["awk '{print $1}' f", 'f\n{print $1}'],
    ["sed -e 's/a/b/' -n f", 'f\ns/a/b/'],
    ['uniq -c in', 'in'],
    ['ls 3>&- 2>&1', ''],
    ['grep "cost: $" f', 'cost: $\nf'],
    ['jq -r .name package.json', '.name\npackage.json'],
    ['grep -- -x f', '-x\nf'],
    ['grep x f || true', 'f\nx'],
    ['cat <<-"END" | grep x\n\tbody $x\n\tEND', 'x'],
    ['cat <<A <<B\na\nA\nb\nB\ncat f', 'f'],
    ['cat <<EOF\nplain\nEOF', ''],
    ['grep x f |& head', 'f\nx'],
    ['find . -name', '\n.'],
    ['sed -e', ''],
    ['grep --max-count 5 --count x f', '5\nf\nx'],
    ['grep x f --max-count', 'f\nx'],
    ['find -L . \\( -name a -o -name b \\) ! -path x , -print', '.\na\nb\nx'],
    ['sed --expression=p f', 'f\np'],
    ['echo $', '$'],
    ['ls # trailing', ''],
    ['grep x <<< "a b"', 'x'],
    ['cat <&3', ''],
    ['grep "a\\"b" f', 'a"b\nf'],
    ['grep "a\\nb" f', 'a\\nb\nf'],
    ['grep "a\\\nb" f', 'ab\nf'],
  ])('%j only reads and asks %j', (command, question) => {
    expect(shellCommand(command)).toMatchObject({ readOnly: true, question })
  })

  it.each([
    // Writers and runners on the list's commands (issues 35 and 36).
    "sed -n '1wout' f",
    "sed 's/a/b/w out' f",
    "sed 'W out' f",
    "sed '1e date' f",
    "sed 's/a/b/e' f",
    'sed -f script.sed f',
    'sort --out=x f',
    'sort --output=x f',
    'sort -o x f',
    'sort -uo x f',
    'sort --compress-program=gzip f',
    'grep --bogus x f',
    'git -C',

    'uniq in out',
    'uniq - out',
    "gawk -i inplace '{print}' f",
    "awk -i inplace '{print}' f",
    'awk -f prog.awk f',
    'awk \'{print > "o"}\' f',
    'awk \'{print | "sh"}\' f',
    'awk \'BEGIN { system("x") }\'',
    'awk \'{ getline l < "f" }\'',
    'git diff --output=x',
    'git log --output x',
    'git diff --ext-diff',
    'git -c core.fsmonitor=x status',
    'git -c core.pager=x log',
    'git commit -m x',
    'git --version',
    'git',
    'tree -o out',
    'rg --pre cat x',
    'rg -z x',
    'find . -print -de\\lete',
    "find . $'-delete'",
    'find . -delete',
    'find . -exec rm {} +',
    'find . -fprint out',
    'tail -f log',
    'file -C -m magic',
    // Commands not on the list: what changes by itself, what runs others, what writes.
    'ps aux | grep x | wc -l',
    'date',
    'df -h',
    'curl -s http://localhost:8080',
    'docker ps',
    'sudo du -sh /',
    'xargs cat',
    'python x.py',
    'rm f',
    'less f',
    'env',
    "test -v 'a[$(touch pwned)]'",
    "[ -v 'a[$(touch pwned)]' ]",
    // An option whose value is optional does not take the next word, which writes (issue 45).
    'git diff --stat --output=out.txt',
    'git log --abbrev --output=out.txt',
    'uniq --group in.txt out.txt',
    'uniq --all-repeated in.txt out.txt',
    'diff --unified --output=x a b',
    'rev-parse --short --output=x',
    // Git that runs what its config names: core.fsmonitor, diff.external, textconv, gpg.program.
    'git status',
    'git status -uno',
    'git diff',
    'git log -1',
    'git show HEAD',
    'git blame f',
    'git ls-files',
    'git grep x',
    'git describe --dirty',
    'git shortlog',
    // sed scripts given as -ne, -eSCRIPT, --expression SCRIPT.
    "sed -ne '1w out.txt' in.txt",
    'sed -e1wout f',
    "sed -nEe '1w out' f",
    "sed -n -l 5 -e '1w x' f",
    "sed --expression '1w o' f",
    'sed --posix=1 p f',
    'sed -nx p f',
    // A glob that may expand to an option: a file named `-delete` or `-i`.
    "find . -name '*.tmp' ?delete",
    'sed -n 1p a.txt ?i',
    'cat *',
    'grep x *.py',
    'ls [-]x',
    '* f',
    // What changes by itself: random order, times against now (the system's folders: readsOf).
    'sort -R f',
    'sort --random-sort f',
    'sort --sort=random f',
    'find . -mmin -5',
    'find . -mtime 1',
    'find . -used 1',
    // cd alone goes home, cd - back: folders the command does not name.
    'cd && cat .bashrc',
    'cd - && cat f',
    'column --output-width 5 f',
    'sed -n',
    "sed -e p -e '1w x' f",
  ])('%j may write', (command) => {
    expect(readOnly(command)).toBe(false)
  })

  it.each([
    ['ls > out', ['out']],
    ['ls >> "a.txt"', ['a.txt']],
    ["echo x >> 'a.txt'", ['a.txt']],
    ['echo x >> ./"a.txt"', ['./a.txt']],
    ['ls &> out', ['out']],
    ['ls &>> out', ['out']],
    ['ls >| out', ['out']],
    ['ls >&out', ['out']],
    ['ls 2> err', ['err']],
    ['ls>out', ['out']],
    ["printf 'x' > notes.txt", ['notes.txt']],
    ['sed -i s/a/b/ f g', ['f', 'g']],
    ['sed -i.bak -e s/a/b/ f', ['f']],
    ['sed --in-place=.bak s/a/b/ f', ['f']],
    ['sed -ni p f', ['f']],
    ['sed -i -l 5 s/a/b/ f', ['f']],
    ['sed -n -i -e p f g', ['f', 'g']],
    ['sed -i -- s/a/b/ f', ['f']],
    ['echo x > /abs/b.txt; cd sub', ['/abs/b.txt']],
    ['cd sub && echo x > /abs/b.txt', ['/abs/b.txt']],
    ['echo x > b.txt; cd sub', ['b.txt']],
    ['ls; echo x > b.txt', ['b.txt']],
    ["cat <<'EOF' > new.py\nprint($x)\nEOF", ['new.py']],
    ['cat <<EOF > new.py\nplain\nEOF\nls', ['new.py']],
  ])('%j writes %j and nothing else', (command, writes) => {
    expect(shellCommand(command)).toMatchObject({ readOnly: false, writes })
  })

  it.each(['ls > /dev/null', 'ls 2>&1', 'ls >&2', 'ls >&-', 'ls 2>/dev/null'])(
    '%j writes no file: /dev/null, a descriptor or a closed one',
    (command) => {
      expect(shellCommand(command)).toMatchObject({ readOnly: true, writes: [] })
    },
  )

  it.each([
    'rm f',
    'sed -i -f x.sed f',
    'sed -i "1e date" f',
    'ls; python x.py',
    // A relative path after `cd` is in a folder not known.
    'cd sub && echo x > b.txt',
    'cd sub && sed -i s/a/b/ f',
    'cd sub && echo x > /abs/b.txt 2> err',
    'sed -i s/a/b/ ?f',
  ])('%j may change anything, not just files it names', (command) => {
    expect(shellCommand(command)!.writes).toBeUndefined()
  })

  it.each<[string, string[]]>([
    ['ls', ['.']],
    ['ls -la src', ['src']],
    ['tree', ['.']],
    ['du -sh', ['.']],
    ['du -sh src', ['src']],
    ["find -name '*.py'", ['*.py', '.']],
    ['find -L src -name a', ['src', 'a']],
    ['grep x f', ['x', 'f']],
    ['cat f | grep x', ['f', 'x']],
    ['grep -r x', ['x', '.']],
    ['grep -rn beta sub', ['beta', 'sub']],
    ['grep -r -A 3 x sub', ['x', 'sub', '3', '.']],
    ['grep --recursive x', ['x', '.']],
    ['grep -nr x', ['x', '.']],
    ['grep x-r', ['x-r']],
    ['find -name x y', ['x', 'y', '.']],
    ['find my-dir -name a', ['my-dir', 'a']],
    ['rg x', ['x', '.']],
    ['rg x src', ['x', 'src']],
    ['git rev-parse HEAD', ['rev-parse', 'HEAD', '.']],
    ['cd sub && cat b.txt < in', ['sub', 'b.txt', 'in']],
  ])('%j may read %j', (command, paths) => {
    expect(shellCommand(command)!.paths).toEqual(paths)
  })

  it.each(['cat', 'head', 'tail', 'nl'])('%s shows files: a view', (name) => {
    expect(shellCommand(`${name} a.py`)).toMatchObject({ view: true, files: ['a.py'] })
  })

  it('views show the files they name; cd and echo keep a view a view; a search is no view', () => {
    expect(shellCommand('sed -n 1,5p a.py')).toMatchObject({ view: true, files: ['a.py'] })
    expect(shellCommand('cd d && echo x && cat a.py')).toMatchObject({ view: true, files: ['a.py'] })
    expect(shellCommand('head -n 15 a.py b.py; cd d')).toMatchObject({ view: true, files: ['a.py', 'b.py'] })
    // A command not on the list reads nothing for sure, and may change anything.
    expect(shellCommand('python t.py')).toMatchObject({ readOnly: false, view: false, writes: undefined })
    // Only a plain number is a count, not a file: a name with a digit in it is a file.
    expect(shellCommand('head -n 15 a1 1a')).toMatchObject({ view: true, files: ['a1', '1a'] })
    expect(shellCommand('cat a.py | wc -l')).toMatchObject({ view: false })
    expect(shellCommand('grep x f')!.view).toBe(false)
  })
})

describe('shellCommand: syntax it does not read proves nothing', () => {
  it.each([
    'cat $(cat f)',
    'cat `cat f`',
    'cat $HOME/f',
    'cat "$X"',
    'cat "`x`"',
    'cat $' + '{X}',
    'cat <(ls)',
    'ls >(tee x)',
    '(cat f)',
    '{ cat f; }',
    'cat {a,b}',
    'f() { ls; }',
    'sleep 5 &',
    'cat <<EOF\n$HOME\nEOF',
    'cat <<EOF\na\\b\nEOF',
    'cat <<EOF\nno end',
    'cat <<EOF',
    'cat <> f',
    "cat 'f",
    'cat "f',
    'cat f\\',
    'ls |',
    '| ls',
    'ls && && ls',
    'case x in a) ;; esac',
    '> out',
    'ls > > out',
    'ls >;',
    'ls;;',
    'cat "$',
    'cat "a\\"',
    'cat "a\\"$',
    'cat "\\',
    'cat $[1+1]',
    'cat "$[1+1]"',
    '',
    '   ',
  ])('%j', (command) => {
    expect(shellCommand(command)).toBeUndefined()
  })

  it('keywords, assignments and negation are read as commands no list knows: they may write', () => {
    for (const command of ['if true; then cat f; fi', 'X=1 cat f', '! cat f', 'time cat f', '[[ -f a ]]'])
      expect(readOnly(command)).toBe(false)
  })

  it(`a command longer than ${LONGEST_COMMAND} characters proves nothing`, () => {
    expect(readOnly(`grep -n "${'x'.repeat(LONGEST_COMMAND - 12)}" f`)).toBe(true)
    expect(shellCommand(`grep -n "${'x'.repeat(LONGEST_COMMAND - 11)}" f`)).toBeUndefined()
  })

  it('hostile commands are read in one pass: 16,384 parentheses or quotes, thousands of pipes', () => {
    expect(shellCommand(')'.repeat(16_384))).toBeUndefined()
    expect(shellCommand(`grep ${'""'.repeat(8_000)} f`)).toMatchObject({ readOnly: true, question: '\nf' })
    expect(shellCommand(`grep ${'"" '.repeat(5_000)} f`)).toBeUndefined()
    expect(shellCommand(`cat f${' | cat'.repeat(2_000)}`)).toBeUndefined()
  })

  it(`a command of more than ${MOST_WORDS} words, redirection targets counted, proves nothing`, () => {
    const words = (n: number) => Array.from({ length: n }, (_, k) => `f${k}`).join(' ')
    expect(shellCommand(`cat ${words(MOST_WORDS - 1)}`)).toMatchObject({ readOnly: true })
    expect(shellCommand(`cat ${words(MOST_WORDS)}`)).toBeUndefined()
    expect(shellCommand(`cat ${words(MOST_WORDS - 3)} < in > out`)).toMatchObject({ writes: ['out'] })
    expect(shellCommand(`cat ${words(MOST_WORDS - 2)} < in > out`)).toBeUndefined()
    expect(shellCommand(`cat ${words(MOST_WORDS - 2)} | cat`)).toMatchObject({ readOnly: true })
    expect(shellCommand(`cat ${words(MOST_WORDS - 1)} | cat`)).toBeUndefined()
  })

  it(`a list of more than ${MOST_COMMANDS} simple commands proves nothing`, () => {
    expect(shellCommand(`cat f${' | cat'.repeat(MOST_COMMANDS - 1)}`)).toMatchObject({ readOnly: true, question: 'f' })
    expect(shellCommand(`cat f${' | cat'.repeat(MOST_COMMANDS)}`)).toBeUndefined()
  })
})

describe('sedPrints: a sed script that only prints', () => {
  it.each([
    'p',
    '1,5p',
    '$!N;P;D',
    '/x/,/y/ { s/a/b/g; p }',
    's|a|b|2p',
    'y/abc/xyz/',
    '\\,x,d',
    '/x/I p',
    '1~2d',
    '10q',
    '10q5',
    's/a\\/b/c/p',
    '1a text\\\nmore',
    ':a;N;ba',
    '# comment\np',
    '1a text',
    '1r other.txt',
    '=',
  ])('%j', (script) => {
    expect(sedPrints(script)).toBe(true)
  })

  it.each([
    '1,/x',
    'w out',
    '1,5w out',
    's/a/b/w out',
    's/a/b/e',
    'e date',
    'W out',
    's/a/b',
    's',
    '/x',
    'k',
    '1,',
    '\\',
  ])('%j may write', (script) => {
    expect(sedPrints(script)).toBe(false)
  })
})
