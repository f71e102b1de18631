import { RULES } from '../../src/rules/index.ts'

/**
 * The config with every option at its default: the shared options written out (the stock
 * plugin's four first), then each rule's as the registry declares it. `config.test.ts` holds every
 * rule's switch to off by default and passes each default back through `Config`.
 */
export const DEFAULTS = Object.freeze({
  thresholds: [3, 5, 8],
  argumentsPreviewChars: 500,
  include: [],
  exclude: [],
  resultAware: false,
  ignoreArguments: [],
  remindEvery: 0,
  blockAt: 0,
  maskNoise: false,
  navigationTools: ['open', 'goto', 'scroll_up', 'scroll_down'],
  readOnlyTools: [
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
  ],
  waits: false,
  ...Object.fromEntries(
    RULES.flatMap((entry) => Object.entries(entry.options).map(([key, option]) => [key, option.schema.meta.default])),
  ),
})
