// The big screen's seats (static/js/screen/seats.js): each seat's fixed place on the ellipse.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seatPlace } from "../../static/js/screen/seats.js";

const near = (a, b) => Math.abs(a - b) < 1e-9;

test("seat 0 sits at the foot, and the others go round clockwise on the screen", () => {
  const foot = seatPlace(0, 4);
  assert.ok(near(foot.x, 50) && foot.y > 85);
  const left = seatPlace(1, 4); // clockwise from the foot: the left side, then the top, then the right
  const top = seatPlace(2, 4);
  const right = seatPlace(3, 4);
  assert.ok(left.x < 15 && near(left.y, 50));
  assert.ok(near(top.x, 50) && top.y < 15);
  assert.ok(right.x > 85 && near(right.y, 50));
});

test("up to ten seats keep inside the box and apart from each other", () => {
  for (let n = 2; n <= 10; n += 1) {
    const places = Array.from({ length: n }, (_, s) => seatPlace(s, n));
    for (const p of places) assert.ok(p.x >= 8 && p.x <= 92 && p.y >= 10 && p.y <= 90, JSON.stringify({ n, p }));
    for (let i = 0; i < n; i += 1) {
      for (let j = i + 1; j < n; j += 1) {
        const d = Math.hypot(places[i].x - places[j].x, places[i].y - places[j].y);
        assert.ok(d > 20, JSON.stringify({ n, i, j, d }));
      }
    }
  }
});
