/**
 * Text a Slack-compatible webhook renders as mrkdwn, from data a workflow controls (its id, its
 * output). Slack reads `<…>` as a mention or a link (`<!channel>`, `<https://x|label>`), so `&`,
 * `<` and `>` become the entities Slack documents; inside a code block, a run of three
 * backticks would end the block early, so a zero-width space breaks every such run.
 */
export function slackText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** `text` as a code block that nothing inside it can close. */
export function slackCodeBlock(text: string): string {
  return `\`\`\`\n${slackText(text).replace(/`(?=``)/g, '`\u200b')}\n\`\`\``;
}
