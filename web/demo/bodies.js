// Geometry of the engine's rigid bodies (World.body()) that the page needs beside the engine:
// the 3D box's corners for drawing, and which body lies under the pointer (a point in 2D, the
// mouse ray in 3D) for grabbing. Bodies are defs with C names (include/puddle/types.h).
import { BodyShape } from '../src/puddle.js';

/** v rotated by the unit quaternion q ({x, y, z, w}): v + 2 w (u x v) + 2 u x (u x v). */
export function rotate(q, v) {
	const tx = 2 * (q.y * v[2] - q.z * v[1]), ty = 2 * (q.z * v[0] - q.x * v[2]), tz = 2 * (q.x * v[1] - q.y * v[0]);
	return [
		v[0] + q.w * tx + (q.y * tz - q.z * ty),
		v[1] + q.w * ty + (q.z * tx - q.x * tz),
		v[2] + q.w * tz + (q.x * ty - q.y * tx),
	];
}

// the inverse rotation of a unit quaternion
const conjugate = (q) => ({ x: -q.x, y: -q.y, z: -q.z, w: q.w });

/** The 8 corners of a 3D box body in world space: index bit 0 x, bit 1 y, bit 2 z (renderer3d.js's order). */
export function boxCorners3d(b) {
	const h = b.half_extents, p = b.position, out = [];
	for (let i = 0; i < 8; ++i) {
		const r = rotate(b.orientation, [(i & 1 ? 1 : -1) * h.x, (i & 2 ? 1 : -1) * h.y, (i & 4 ? 1 : -1) * h.z]);
		out.push([p.x + r[0], p.y + r[1], p.z + r[2]]);
	}
	return out;
}

/** Whether the 2D point (x, y) lies in the body: its disc, or its corners' convex polygon (counter-clockwise). */
export function contains2d(b, x, y) {
	if (b.shape === BodyShape.CIRCLE) return Math.hypot(x - b.position.x, y - b.position.y) <= b.radius;
	const c = b.corners, n = c.length;
	if (n < 3) return false;
	for (let i = 0; i < n; ++i) {
		const a = c[i], d = c[(i + 1) % n];
		if ((d.x - a.x) * (y - a.y) - (d.y - a.y) * (x - a.x) < 0) return false;
	}
	return true;
}

/** Distance along the ray (eye, unit dir) to where it enters a 3D body; Infinity if it misses. */
export function rayHit3d(b, eye, dir) {
	const e = [eye.x - b.position.x, eye.y - b.position.y, eye.z - b.position.z], d = [dir.x, dir.y, dir.z];
	if (b.shape === BodyShape.CIRCLE) {
		const along = -(e[0] * d[0] + e[1] * d[1] + e[2] * d[2]);
		const miss2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2] - along * along, r2 = b.radius * b.radius;
		if (miss2 > r2) return Infinity;
		const t = along - Math.sqrt(r2 - miss2);
		return t > 0 ? t : along + Math.sqrt(r2 - miss2) > 0 ? 0 : Infinity;
	}
	// slabs in the box's own frame (Kay & Kajiya 1986)
	const inv = conjugate(b.orientation), o = rotate(inv, e), u = rotate(inv, d), h = [b.half_extents.x, b.half_extents.y, b.half_extents.z];
	let near = 0, far = Infinity;
	for (let k = 0; k < 3; ++k) {
		if (Math.abs(u[k]) < 1e-12) {
			if (Math.abs(o[k]) > h[k]) return Infinity;
			continue;
		}
		const t0 = (-h[k] - o[k]) / u[k], t1 = (h[k] - o[k]) / u[k];
		near = Math.max(near, Math.min(t0, t1));
		far = Math.min(far, Math.max(t0, t1));
	}
	return near <= far ? near : Infinity;
}
