// The orbit camera of 3D scenes, mirroring io/include/puddle/camera.h (pdl_camera) so that a
// scene's "camera" means the same picture here as in the native renderer and viewer. It circles
// a target: yaw (degrees) turns it about +y, 0 putting it on the +z side looking towards -z and
// 90 on the +x side; pitch (degrees, [-89, 89]) raises it above the horizon, positive looking
// down; distance (world units) moves it in and out; fov is the vertical field of view (degrees).
//
//   const cam = cameraFraming(lo, hi);                 // sees the whole box lo..hi
//   cam.yaw += 10;                                     // orbit
//   const m = cameraMatrix(cam, width / height);       // clip = m * (x, y, z, 1), column-major

const DEG = Math.PI / 180;

// generated from io/include/puddle/scene_fields.h: camera defaults (io/tests/fields_gen.c)
/** pdl_default_camera(): the declared defaults. */
const DEFAULT_CAMERA = { target: { x: 0, y: 0, z: 0 }, yaw: 30, pitch: 25, distance: 40, fov: 45 };
/** The fields with a closed range, [lo, hi]. */
const CAMERA_RANGES = { pitch: [-89, 89], fov: [5, 120] };
// end of generated: camera defaults

/** The declared default camera (pdl_default_camera): looking at the origin from 40 units away. */
export function defaultCamera() {
	return { ...DEFAULT_CAMERA, target: { ...DEFAULT_CAMERA.target } };
}

/**
 * The default camera aimed at the centre of the box [lo, hi], far enough back
 * that the box's bounding sphere fits the vertical field of view (pdl_camera_framing).
 */
export function cameraFraming(lo, hi) {
	const c = defaultCamera();
	const f = Math.fround;
	c.target = { x: f(0.5 * (lo.x + hi.x)), y: f(0.5 * (lo.y + hi.y)), z: f(0.5 * ((lo.z ?? 0) + (hi.z ?? 0))) };
	const dx = hi.x - lo.x, dy = hi.y - lo.y, dz = (hi.z ?? 0) - (lo.z ?? 0);
	const radius = 0.5 * Math.sqrt(dx * dx + dy * dy + dz * dz);
	c.distance = f(radius / Math.sin(0.5 * c.fov * DEG));
	if (!(c.distance > 0)) c.distance = 1;
	return c;
}

/** The camera's unit frame: forward (eye to target), right, up (camera.c frame()). */
export function cameraFrame(c) {
	const cy = Math.cos(c.yaw * DEG), sy = Math.sin(c.yaw * DEG);
	const cp = Math.cos(c.pitch * DEG), sp = Math.sin(c.pitch * DEG);
	// the eye's offset from the target is distance * (sy cp, sp, cy cp); forward is its negative
	const f = [-sy * cp, -sp, -cy * cp];
	const r = [cy, 0, -sy]; // f x (0, 1, 0), normalized
	const u = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]];
	return { f, r, u };
}

/** Where the camera is, world units (pdl_camera_eye). */
export function cameraEye(c) {
	const { f } = cameraFrame(c);
	return { x: c.target.x - c.distance * f[0], y: c.target.y - c.distance * f[1], z: c.target.z - c.distance * f[2] };
}

/**
 * The view-projection matrix for width / height = aspect, column-major (element [col * 4 + row]),
 * right-handed, clip z in [-1, 1] between the near and far planes distance / 100 and
 * distance * 100 (pdl_camera_matrix). Returns a Float32Array(16), or fills `out`.
 */
export function cameraMatrix(c, aspect, out = new Float32Array(16)) {
	const { f, r, u } = cameraFrame(c);
	const e = cameraEye(c);
	const near = c.distance / 100, far = c.distance * 100;
	const t = 1 / Math.tan(0.5 * c.fov * DEG);
	// view: rows r, u, -f; translation -R e
	const view = [
		[r[0], r[1], r[2], -(r[0] * e.x + r[1] * e.y + r[2] * e.z)],
		[u[0], u[1], u[2], -(u[0] * e.x + u[1] * e.y + u[2] * e.z)],
		[-f[0], -f[1], -f[2], f[0] * e.x + f[1] * e.y + f[2] * e.z],
	];
	// perspective (gluPerspective) times view
	const a = (far + near) / (near - far), b = (2 * far * near) / (near - far);
	for (let col = 0; col < 4; ++col) {
		out[col * 4 + 0] = (t / aspect) * view[0][col];
		out[col * 4 + 1] = t * view[1][col];
		out[col * 4 + 2] = a * view[2][col] + (col === 3 ? b : 0);
		out[col * 4 + 3] = -view[2][col];
	}
	return out;
}

/**
 * The unit direction of the ray from the eye through a point of the picture in normalized
 * device coordinates (x, y in [-1, 1], y up): the mouse pointer's ray (pdl_camera_ray).
 */
export function cameraRay(c, aspect, ndcX, ndcY) {
	const { f, r, u } = cameraFrame(c);
	const t = Math.tan(0.5 * c.fov * DEG);
	const d = [0, 1, 2].map((k) => f[k] + ndcX * t * aspect * r[k] + ndcY * t * u[k]);
	const len = Math.hypot(d[0], d[1], d[2]);
	return { x: d[0] / len, y: d[1] / len, z: d[2] / len };
}

/** Keeps a camera in its declared ranges (pitch, fov), and its distance > 0. */
export function clampCamera(c) {
	for (const [field, [lo, hi]] of Object.entries(CAMERA_RANGES)) c[field] = Math.min(hi, Math.max(lo, c[field]));
	if (!(c.distance > 1e-3)) c.distance = 1e-3;
	return c;
}
