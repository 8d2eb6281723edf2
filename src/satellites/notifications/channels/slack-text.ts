/**
 * Slack's mrkdwn control characters, escaped as Slack documents: `&`, `<` and `>` become
 * entities, so text from a workflow cannot form a mention (`<!channel>`, `<@U123>`) or a link
 * (`<https://…|label>`).
 */
export function slackEscape(text: string): string {
  let out = '';
  for (const char of text) out += char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : char;
  return out;
}

/** A zero-width space: Slack has no escape for a backtick, so one is put after each to break any fence. */
const ZERO_WIDTH_SPACE = '\u200b';

/**
 * `text` as a Slack code block it cannot leave: escaped as above, and each backtick followed
 * by a zero-width space, so no three backticks in a row close the fence early.
 */
export function slackCodeBlock(text: string): string {
  let body = '';
  for (const char of slackEscape(text)) body += char === '`' ? `\`${ZERO_WIDTH_SPACE}` : char;
  return `\`\`\`\n${body}\n\`\`\``;
}
