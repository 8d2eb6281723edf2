/** The page's styles; `--block-color` is set per block by the script. */
export const pageStyles = `
:root {
  --bg: #f5f6f8; --card: #fff; --line: #e2e5ea; --text: #1c2026; --muted: #5f6773;
  --ok: #127a46; --ok-bg: #e5f6ec; --err: #b42318; --err-bg: #fdecea; --block-color: #444;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  color: var(--text); background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; }
.top { display: flex; align-items: baseline; gap: 16px; padding: 12px 24px; background: #14171c; color: #fff; }
.top h1 { margin: 0; font-size: 17px; font-weight: 650; }
.top h1 span { font-weight: 400; color: #9aa3ae; }
.connection { margin: 0; color: #c4cad2; font-size: 13px; }
.layout { display: grid; grid-template-columns: 232px minmax(0, 1fr); min-height: calc(100vh - 48px); }
.blocks { padding: 16px 12px; border-right: 1px solid var(--line); background: #fbfbfc; display: flex; flex-direction: column; gap: 6px; }
.block-item { display: grid; grid-template-columns: 36px 1fr; grid-template-rows: auto auto; column-gap: 10px; align-items: center;
  width: 100%; padding: 8px; border: 1px solid transparent; border-radius: 10px; background: none; font: inherit; text-align: left; cursor: pointer; color: inherit; }
.block-item:hover { background: #f0f2f5; }
.block-item[aria-current="true"] { background: var(--card); border-color: var(--line); box-shadow: 0 1px 2px rgb(0 0 0 / 6%); }
.block-item .tile { grid-row: span 2; }
.block-item .name { font-weight: 600; }
.block-item .count { color: var(--muted); font-size: 12px; }
.tile { display: inline-flex; align-items: center; justify-content: center; width: 36px; height: 36px; border-radius: 9px; color: #fff; }
.tile svg { width: 24px; height: 24px; }
.tile.large { width: 48px; height: 48px; border-radius: 12px; }
.tile.large svg { width: 32px; height: 32px; }
.block { padding: 20px 24px 40px; }
.block-head { display: flex; gap: 14px; align-items: center; padding-bottom: 16px; margin-bottom: 18px; border-bottom: 3px solid var(--block-color); }
.block-head h2 { margin: 0; font-size: 20px; }
.block-head p { margin: 2px 0 0; color: var(--muted); max-width: 70ch; }
.block-head a { margin-left: auto; color: var(--block-color); font-size: 13px; white-space: nowrap; }
.panes { display: grid; grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); gap: 20px; align-items: start; }
/* Outputs and the result stay in view beside a long list of fields. */
.side { position: sticky; top: 16px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 16px; }
.card + .card { margin-top: 16px; }
.card h3 { margin: 0 0 12px; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.field { margin-bottom: 14px; }
.field[hidden], .endpoint[hidden] { display: none; }
.field label.title, .endpoint label { display: block; font-weight: 600; margin-bottom: 4px; }
.req { color: var(--err); margin-left: 2px; }
.req[hidden] { display: none; }
.help { margin: -2px 0 6px; color: var(--muted); font-size: 12.5px; }
input[type=text], input[type=password], input[type=number], input[type=url], select, textarea {
  width: 100%; padding: 7px 9px; border: 1px solid #cfd4db; border-radius: 7px; font: inherit; color: inherit; background: #fff; }
input:focus, select:focus, textarea:focus { outline: 2px solid color-mix(in srgb, var(--block-color) 45%, transparent); border-color: var(--block-color); }
textarea { resize: vertical; }
.code { border: 1px solid #2b3038; border-radius: 8px; overflow: hidden; background: #1b1f25; }
.code .lang { display: block; padding: 3px 10px; background: #2b3038; color: #c9d1d9; font: 600 11px/1.6 ui-monospace, SFMono-Regular, Menlo, monospace; text-transform: uppercase; letter-spacing: .06em; }
.code textarea { border: 0; border-radius: 0; background: transparent; color: #e6edf3; font: 12.5px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; min-height: 72px; tab-size: 2; }
.switch { display: inline-flex; align-items: center; gap: 8px; cursor: pointer; }
.switch input { appearance: none; width: 36px; height: 20px; margin: 0; border-radius: 10px; background: #c7ccd3; position: relative; cursor: pointer; transition: background .15s; }
.switch input::after { content: ""; position: absolute; top: 2px; left: 2px; width: 16px; height: 16px; border-radius: 50%; background: #fff; transition: left .15s; }
.switch input:checked { background: var(--block-color); }
.switch input:checked::after { left: 18px; }
.switch input:indeterminate { background: repeating-linear-gradient(135deg, #d9dde2 0 4px, #c7ccd3 4px 8px); }
.switch input:indeterminate::after { left: 10px; }
.switch .state { color: var(--muted); font-size: 12.5px; }
.endpoint { margin: 4px 0 14px; padding-top: 12px; border-top: 1px dashed var(--line); }
.actions { display: flex; align-items: center; gap: 12px; margin-top: 6px; }
button.run { padding: 8px 22px; border: 0; border-radius: 8px; background: var(--block-color); color: #fff; font: 600 14px/1.4 inherit; font-family: inherit; cursor: pointer; }
button.run:disabled { opacity: .6; cursor: progress; }
.outputs { width: 100%; border-collapse: collapse; font-size: 13px; table-layout: fixed; }
.outputs th:first-child { width: 38%; }
.outputs th, .outputs td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
.outputs th { color: var(--muted); font-weight: 600; font-size: 12px; }
.outputs code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.outputs .type { display: block; color: var(--muted); font-size: 12px; }
.outputs code.value { display: block; margin-top: 4px; padding: 3px 6px; border-radius: 5px; background: #eef1f5; color: #25303d; font-size: 12px; }
.badge { display: inline-block; padding: 2px 9px; border-radius: 999px; font-weight: 600; font-size: 12.5px; }
.badge.success { background: var(--ok-bg); color: var(--ok); }
.badge.error { background: var(--err-bg); color: var(--err); }
.meta { color: var(--muted); font-size: 12.5px; margin-left: 8px; }
.result-body { margin: 10px 0 0; padding: 12px; max-height: 420px; overflow: auto; border-radius: 8px; background: #1b1f25; color: #e6edf3; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; word-break: break-word; }
.placeholder { color: var(--muted); margin: 0; }
.field[data-invalid="true"] input, .field[data-invalid="true"] textarea, .field[data-invalid="true"] select { border-color: var(--err); outline-color: var(--err); }
.field-error { margin: 4px 0 0; color: var(--err); font-size: 12.5px; }
.issues { margin: 10px 0 0; padding-left: 18px; font-size: 13px; }
.issues li { margin: 3px 0; }
.issues code { color: var(--err); margin-right: 4px; }
.result-message { margin: 10px 0 0; font-size: 13px; }
`;
