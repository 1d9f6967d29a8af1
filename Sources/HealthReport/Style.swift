/// The page's one stylesheet, inline: system fonts only (nothing fetched), charts that scale with
/// the page, tables that scroll inside their box on a phone rather than widen the page, and a
/// print layout for A4 and Letter: each section with data starts a page, charts two by two.
enum Style {
    static let css = """
        :root { --ink: #1d2330; --muted: #5b6475; --rule: #d5d9e0; --s0: #2a7ab8; --s1: #d2552a; --s2: #3b9b5a;
          --s3: #8a5cc2; --s4: #c79a12; --s5: #1d9aa5; --s6: #b8487e; --s7: #6d7482; }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0 auto; max-width: 1100px; padding: 16px; color: var(--ink); background: #fff;
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; overflow-wrap: anywhere; }
        h1 { font-size: 1.8em; margin: 0.2em 0; }
        h2 { font-size: 1.35em; margin: 1.6em 0 0.4em; border-bottom: 2px solid var(--rule); padding-bottom: 0.15em; }
        h3 { font-size: 1.05em; margin: 1.2em 0 0.3em; }
        p { margin: 0.4em 0; }
        .period { color: var(--muted); }
        .privacy { border-left: 4px solid var(--s1); padding: 0.3em 0.7em; background: #fbf1ec; }
        .audit { border-left: 4px solid var(--s2); padding: 0.3em 0.7em; background: #eef7f0; }
        .audit.unverified { border-color: #b00020; background: #fde8eb; font-weight: 600; }
        .empty { color: var(--muted); font-style: italic; }
        .intro, .note { color: var(--muted); font-size: 0.92em; }
        nav ul { list-style: none; padding: 0; margin: 0.6em 0; display: flex; flex-wrap: wrap; gap: 0.3em 1em; }
        nav a { color: var(--s0); }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 380px), 1fr)); gap: 12px 20px; }
        figure { margin: 0.6em 0; min-width: 0; }
        figure.wide { max-width: 760px; }
        figcaption { font-size: 0.9em; color: var(--muted); margin-bottom: 0.3em; }
        figcaption strong { color: var(--ink); display: block; font-size: 1.08em; }
        svg.plot { display: block; width: 100%; height: auto; max-width: 100%; }
        svg text { font: 12px system-ui, "DejaVu Sans", sans-serif; fill: var(--muted); }
        svg .unit { font-weight: 600; fill: var(--ink); }
        svg .grid { stroke: #eceef2; stroke-width: 1; }
        svg .axis-line, svg .tick-mark { stroke: #8b93a3; stroke-width: 1; }
        svg .line { fill: none; stroke-width: 2; }
        svg .range { stroke-linecap: round; }
        svg .goal-line { fill: none; stroke: var(--ink); stroke-width: 1.2; stroke-dasharray: 4 3; }
        svg .goal-label { fill: var(--ink); font-size: 11px; }
        .s0 { fill: var(--s0); stroke: var(--s0); } .s1 { fill: var(--s1); stroke: var(--s1); }
        .s2 { fill: var(--s2); stroke: var(--s2); } .s3 { fill: var(--s3); stroke: var(--s3); }
        .s4 { fill: var(--s4); stroke: var(--s4); } .s5 { fill: var(--s5); stroke: var(--s5); }
        .s6 { fill: var(--s6); stroke: var(--s6); } .s7 { fill: var(--s7); stroke: var(--s7); }
        svg .bar { stroke: none; } svg path.line { fill: none; }
        .scroll { overflow-x: auto; max-width: 100%; }
        table.list { border-collapse: collapse; font-size: 0.88em; margin: 0.3em 0 0.8em; }
        table.list th, table.list td { border-bottom: 1px solid var(--rule); padding: 0.25em 0.6em 0.25em 0; text-align: left;
          vertical-align: top; }
        table.list td.number { text-align: right; white-space: nowrap; }
        td.refused { color: #b00020; }
        .sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
          clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0; }
        footer { margin-top: 2em; color: var(--muted); font-size: 0.85em; border-top: 1px solid var(--rule); padding-top: 0.5em; }
        @media (max-width: 600px) { body { padding: 10px; font-size: 14px; } h1 { font-size: 1.5em; } }
        @page { margin: 12mm; }
        @media print {
          body { max-width: none; padding: 0; font-size: 10.5pt; }
          nav { display: none; }
          a { color: inherit; text-decoration: none; }
          section.has-data { break-before: page; }
          h2, h3 { break-after: avoid; }
          figure, tr, .audit, .privacy { break-inside: avoid; }
          .charts { grid-template-columns: 1fr 1fr; gap: 4mm 8mm; }
          figure.wide { max-width: 120mm; }
          table.list { font-size: 8.5pt; }
          table.list th, table.list td { padding: 0.1em 0.5em 0.1em 0; }
          .intro { font-size: 9pt; }
          .scroll { overflow: visible; }
          .privacy, .audit, td.refused { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
          svg .bar, svg .line, svg .dot, svg .range, .swatch { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        }
        """
}
