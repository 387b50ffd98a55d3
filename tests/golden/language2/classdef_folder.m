% A class in an @-folder: methods declared by signature in the classdef
% and defined in their own files (one of them static).
v = Vec2(3, 4);
disp(v.norm2())
disp(norm2(v))
z = Vec2.zero();
disp([z.X z.Y])
disp(ismethod(v, 'norm2'))
