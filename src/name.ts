/** The plugin name: the `cordis.yml` id, the reminders' source and the error prefix. */
export const name = 'repeat-tool-reminder'
