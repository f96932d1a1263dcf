// A small Markdown renderer for the log analysis reports (API.md §9):
// headings, paragraphs, lists (bulleted and numbered), tables with their
// column alignment, fenced code and inline code, bold and emphasis.
// Everything it makes is an element built here with text nodes inside:
// no HTML in the source is ever parsed, so a log line holding <script>
// shows as those characters. Anything it does not know reads as text.

/** renderMarkdown(text) → a DocumentFragment of the rendered blocks. */
export function renderMarkdown(text) {
  const out = document.createDocumentFragment();
  const lines = String(text).replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  let para = [];
  const flush = () => {
    if (para.length) out.append(node('p', inline(para.join(' '))));
    para = [];
  };
  while (i < lines.length) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)(.*)$/.exec(line);
    if (fence) {
      flush();
      const body = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) body.push(lines[i]);
      i++; // the closing fence (or the end)
      const code = node('code', [body.join('\n')]);
      if (fence[2].trim()) code.dataset.lang = fence[2].trim();
      out.append(node('pre', [code]));
      continue;
    }
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      flush();
      out.append(node('h' + Math.min(6, h[1].length + 1), inline(h[2]))); // the report's # is the page's h2
      i++;
      continue;
    }
    if (isRow(line) && i + 1 < lines.length && isDivider(lines[i + 1])) {
      flush();
      const head = cells(line);
      const align = cells(lines[i + 1]).map((c) => (/^:-+:$/.test(c) ? 'center' : /-:$/.test(c) ? 'right' : ''));
      const rows = [];
      for (i += 2; i < lines.length && isRow(lines[i]); i++) rows.push(cells(lines[i]));
      const cell = (tag, text, k) => {
        const c = node(tag, inline(text));
        if (align[k]) c.className = 'align-' + align[k];
        return c;
      };
      const table = node('table', [
        node('thead', [node('tr', head.map((c, k) => cell('th', c, k)))]),
        node('tbody', rows.map((r) => node('tr', head.map((_, k) => cell('td', r[k] || '', k))))),
      ]);
      out.append(node('div', [table], 'table-wrap'));
      continue;
    }
    const item = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const ordered = /\d/.test(item[1]);
      const list = document.createElement(ordered ? 'ol' : 'ul');
      if (ordered && parseInt(item[1], 10) !== 1) list.start = parseInt(item[1], 10);
      for (let m; i < lines.length && (m = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/.exec(lines[i])) && /\d/.test(m[1]) === ordered; i++) {
        list.append(node('li', inline(m[2])));
      }
      out.append(list);
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      out.append(document.createElement('hr'));
      i++;
      continue;
    }
    if (!line.trim()) flush(); else para.push(line.trim());
    i++;
  }
  flush();
  return out;
}

function node(tag, children, className) {
  const n = document.createElement(tag);
  if (className) n.className = className;
  for (const c of children) n.append(c);
  return n;
}

const isRow = (l) => /^\s*\|.*\|\s*$/.test(l);
const isDivider = (l) => /^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(l);

// cells splits a table row at its unescaped pipes; "\|" is a pipe inside a cell.
function cells(row) {
  const s = row.trim().slice(1, -1);
  const out = [];
  let cur = '';
  for (let k = 0; k < s.length; k++) {
    if (s[k] === '\\' && s[k + 1] === '|') { cur += '|'; k++; continue; }
    if (s[k] === '|') { out.push(cur.trim()); cur = ''; continue; }
    cur += s[k];
  }
  out.push(cur.trim());
  return out;
}

/**
 * inline turns a line into nodes: `code` first (nothing inside it is
 * markup), then **bold** / __bold__ and *emphasis* / _emphasis_; a
 * backslash keeps the next punctuation mark as it is.
 */
export function inline(text) {
  const out = [];
  const parts = String(text).split(/(`[^`]*`)/);
  for (const part of parts) {
    if (part.length > 1 && part.startsWith('`') && part.endsWith('`')) out.push(node('code', [part.slice(1, -1)]));
    else if (part) out.push(...emphasis(part));
  }
  return out;
}

function emphasis(text) {
  const out = [];
  const re = /\*\*(.+?)\*\*|__(.+?)__|\*(\S(?:.*?\S)?)\*|(?<![\w\\])_(\S(?:.*?\S)?)_(?!\w)/g;
  let last = 0;
  for (let m; (m = re.exec(text));) {
    if (m.index > 0 && text[m.index - 1] === '\\') continue;
    if (m.index > last) out.push(unescapeMd(text.slice(last, m.index)));
    const bold = m[1] ?? m[2];
    out.push(bold !== undefined ? node('strong', emphasis(bold)) : node('em', emphasis(m[3] ?? m[4])));
    last = re.lastIndex;
  }
  if (last < text.length) out.push(unescapeMd(text.slice(last)));
  return out;
}

const unescapeMd = (s) => s.replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');
