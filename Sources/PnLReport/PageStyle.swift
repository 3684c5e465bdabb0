/// The page's CSS, inline: system fonts only, nothing fetched. One column on a phone, the charts side by side from
/// about 700 px; tables scroll inside their box rather than widen the page.
enum PageStyle {
    static let css = """
        :root{--ink:#1d2330;--muted:#5b6475;--line:#d9dde5;--card:#fff;--bg:#f4f5f8;--net:#2f6fb0;--margin:#2e8b57;\
        --loss:#c0392b;--warn:#b7791f}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.45 system-ui,-apple-system,"Segoe UI",\
        Roboto,"Helvetica Neue",Arial,sans-serif}
        main{max-width:1180px;margin:0 auto;padding:24px}
        h1{font-size:28px;margin:0 0 4px}h2{font-size:20px;margin:0 0 12px}
        .meta{color:var(--muted);margin:0 0 8px}.note{color:var(--muted);font-size:14px;margin:4px 0;max-width:72ch}
        header{margin-bottom:20px}
        .period{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:20px;margin:0 0 24px}
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:20px;margin-bottom:16px}
        figure{margin:0;min-width:0}figcaption{font-weight:600;font-size:15px;margin-bottom:6px}
        .legend{display:block;font-weight:400;color:var(--muted);font-size:13px}
        .key{display:inline-block;width:10px;height:10px;border-radius:2px;margin:0 4px 0 0}
        .key.margin{margin-left:12px}
        .key.net{background:var(--net)}.key.margin{background:var(--margin)}
        svg{display:block;width:100%;height:auto;overflow:visible}
        svg text{font-size:14px;fill:var(--ink)}
        svg .axis{stroke:#9aa3b2;stroke-width:1}
        svg .balance{fill:none;stroke:var(--net);stroke-width:2.5;stroke-linejoin:round}
        svg .net{fill:var(--net)}svg .margin{fill:var(--margin)}svg .negative{fill:var(--loss)}
        svg .declines{fill:var(--warn)}
        .empty{color:var(--muted);font-style:italic}
        .table-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch}
        table{border-collapse:collapse;width:100%;font-size:14px;font-variant-numeric:tabular-nums}
        th,td{padding:6px 7px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
        thead th{color:var(--muted);font-weight:600;white-space:normal;vertical-align:bottom}
        thead th:first-child,tbody th,tfoot th{text-align:left;position:sticky;left:0;background:var(--card)}
        tbody th,tfoot th{font-weight:600;white-space:normal;min-width:11em}
        tbody th .badge{margin:2px 4px 0 0}
        tfoot th,tfoot td{border-top:2px solid var(--ink);font-weight:700}
        tr.loss td,tr.loss th{color:var(--loss)}tr.often-declined td,tr.often-declined th{background:#fdf6e7}
        .badge{display:inline-block;font-size:11px;font-weight:700;border-radius:8px;padding:1px 6px;margin-left:4px;\
        color:#fff;vertical-align:middle}
        .badge.loss{background:var(--loss)}.badge.declined{background:var(--warn)}
        ul.declines{padding-left:18px;margin:0}ul.declines li{margin:4px 0;overflow-wrap:anywhere}
        .when,.subject{color:var(--muted)}
        .headline{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:12px;margin:14px 0}
        .figure{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:12px 14px}
        .figure .what{color:var(--muted);font-size:14px}.figure .amount{font-size:24px;font-weight:700;\
        font-variant-numeric:tabular-nums;overflow-wrap:anywhere}.figure .sub{color:var(--muted);font-size:13px}\
        .figure .unknown{display:block;font-size:14px;line-height:1.3;font-weight:400;color:var(--muted)}
        .feature-key{color:var(--muted);font-weight:400;font-family:ui-monospace,Menlo,Consolas,monospace;\
        font-size:12px}
        .since{color:var(--muted);font-weight:400;font-size:15px}
        .money{margin-top:18px}h3{font-size:17px;margin:0 0 8px}h4{font-size:15px;margin:14px 0 6px}
        svg text.value{font-size:12px;font-weight:600}svg text.label{font-size:13px}svg .point{fill:var(--net)}
        @media (max-width:600px){main{padding:12px}.period{padding:12px;border-radius:10px}h1{font-size:22px}\
        .headline{grid-template-columns:1fr 1fr}.figure .amount{font-size:19px}\
        table{font-size:12px}th,td{padding:5px 6px}tbody th,tfoot th{min-width:7.5em}}
        """
}
