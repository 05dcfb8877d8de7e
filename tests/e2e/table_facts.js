// Facts about the table drawing the learner sees, measured in the page (read by the layout tests).
// Returns the smallest rendered text size, pieces that overlap, and text that spills out of its seat.
() => {
  const svg = [...document.querySelectorAll("svg.table-svg")].find((s) => s.getBoundingClientRect().width > 0);
  if (!svg) return null;
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const texts = [...svg.querySelectorAll("text")];
  const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  const r = (el) => el.getBoundingClientRect();
  const name = (el) => (el.closest("g") ? el.closest("g").getAttribute("class") : el.tagName) + ": " + el.textContent.trim();
  const pieces = [
    ...[...svg.querySelectorAll("g.seat")].map((g) => [name(g.querySelector("text")), r(g.querySelector("rect"))]),
    ...[...svg.querySelectorAll(":scope > g.seat-tag, :scope > g.bet, :scope > g.pot, :scope > g.dealer")].map((g) => [name(g), r(g)]),
    ...[...svg.querySelectorAll("g.card")].map((g, i) => ["card " + i, r(g)]),
  ];
  const overlaps = [];
  const cut = 0.5; // touching edges is not covering
  for (let i = 0; i < pieces.length; i++) {
    for (let j = i + 1; j < pieces.length; j++) {
      const [a, p] = pieces[i], [b, q] = pieces[j];
      if (a.startsWith("card ") && b.startsWith("card ")) continue;
      if (p.left < q.right - cut && q.left < p.right - cut && p.top < q.bottom - cut && q.top < p.bottom - cut) overlaps.push(a + " × " + b);
    }
  }
  const spills = [];
  for (const g of svg.querySelectorAll("g.seat, g.seat-tag")) {
    const frame = r(g.querySelector("rect"));
    for (const t of g.querySelectorAll("text")) {
      const b = r(t);
      if (b.left < frame.left - cut || b.right > frame.right + cut) spills.push(t.textContent.trim());
    }
  }
  return {
    width: box.width, top: box.top, bottom: box.bottom, scale,
    minFont: Math.min(...sizes), texts: texts.length, overlaps, spills,
    cards: svg.querySelectorAll("g.card").length,
  };
}
