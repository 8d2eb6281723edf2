/** The page shell: the script builds everything else from `GET /api/blocks`. */
export const pageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>flowblocks preview</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header class="top">
  <h1>flowblocks <span>preview</span></h1>
  <p id="connection" class="connection"></p>
</header>
<div class="layout">
  <nav id="blocks" class="blocks" aria-label="Blocks"></nav>
  <main id="block" class="block" aria-live="polite"><p class="loading">Loading blocks…</p></main>
</div>
</body>
</html>
`;
