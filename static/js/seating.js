// Who sits where on the screen, and who plays next: pure functions of a seat's table view.
//
// The seats are listed in the order they play after you, following the direction of play
// (RULES.md C-1: a Reverse flips it, and the list turns round with it).

/** The other seats in the order they play after `you` (someone watching: from seat 1). */
export function playOrder(seats, direction, you) {
  const from = you === null || you === undefined ? -direction : you;
  const order = [];
  for (let k = 1; k <= seats; k += 1) {
    const seat = (((from + k * direction) % seats) + seats) % seats;
    if (seat !== you) order.push(seat);
  }
  return order;
}

/**
 * The seat that plays after `current`: the next one in the direction of play, passing over
 * seats that still owe lost turns (`owed`, the view's skips_owed: All Wild's Double Skip).
 * Seats out of the match (`out`, HR-30) are passed over for good.
 * A forecast for the eye: the current player's card (a Skip, a Reverse) may still change it.
 */
export function nextSeat(seats, direction, current, owed = [], out = new Set()) {
  if (current === null || current === undefined || seats < 2) return null;
  const left = [...owed];
  let seat = current;
  // As the engine passes the turn on: each seat that owes a lost turn pays one and is passed
  // over, and a player whose opponents all lose their turns plays again.
  for (let k = 0; k < 4 * seats; k += 1) {
    seat = (((seat + direction) % seats) + seats) % seats;
    if (out.has(seat) && seat !== current) continue;
    if (left[seat] > 0) { left[seat] -= 1; continue; }
    return seat;
  }
  return null;
}
