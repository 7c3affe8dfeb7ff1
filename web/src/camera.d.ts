// Types of web/src/camera.js: the orbit camera of 3D scenes (io/include/puddle/camera.h).
import type { Vec3 } from './puddle.js';

// generated from io/include/puddle/scene_fields.h: camera (io/tests/fields_gen.c)
/** pdl_camera: the orbit camera of a 3D scene */
export interface Camera {
	/** the point looked at and orbited; world units; finite; default centre of the bounds. */
	target: Vec3;
	/** about +y: 0 puts the camera on the +z side looking to -z, 90 on the +x side; degrees; finite; default 30. */
	yaw: number;
	/** above the horizon; positive looks down on the target; degrees; [-89, 89]; default 25. */
	pitch: number;
	/** from the target; world units; > 0; default the framing's. */
	distance: number;
	/** vertical field of view; degrees; [5, 120]; default 45. */
	fov: number;
}
// end of generated: camera

type Point3 = { x: number; y: number; z?: number };

export declare function defaultCamera(): Camera;
export declare function cameraFraming(lo: Point3, hi: Point3): Camera;
export declare function cameraFrame(camera: Camera): { f: number[]; r: number[]; u: number[] };
export declare function cameraEye(camera: Camera): Vec3;
/** Column-major view-projection matrix (clip = m * (x, y, z, 1)). */
export declare function cameraMatrix(camera: Camera, aspect: number, out?: Float32Array): Float32Array;
/** Unit ray direction from the eye through normalized device coordinates (y up). */
export declare function cameraRay(camera: Camera, aspect: number, ndcX: number, ndcY: number): Vec3;
export declare function clampCamera(camera: Camera): Camera;
