% interpn cases from GNU Octave's own tests (interpn.m), where MATLAB's
% documentation agrees; each line prints 1 when the assertion holds.
[x, y, z] = ndgrid(0:2);
f = x + y + z;
disp(isequal(interpn(x, y, z, f, [.5 1.5], [.5 1.5], [.5 1.5]), [1.5 4.5]))
disp(isequal(interpn(x, y, z, f, [.51 1.51], [.51 1.51], [.51 1.51], 'nearest'), [3 6]))
disp(max(abs(interpn(x, y, z, f, [.5 1.5], [.5 1.5], [.5 1.5], 'spline') - [1.5 4.5])) < 1e-12)
disp(isequal(interpn(x, y, z, f, x, y, z), f))
disp(isequal(interpn(x, y, z, f, x, y, z, 'nearest'), f))
disp(max(abs(reshape(interpn(x, y, z, f, x, y, z, 'spline') - f, 1, []))) < 1e-12)
[x, y, z] = ndgrid(0:2, 1:4, 2:6);
f = x + y + z;
xi = [0.5 1.0 1.5];  yi = [1.5 2.0 2.5 3.5];  zi = [2.5 3.5 4.0 5.0 5.5];
fi = interpn(x, y, z, f, xi, yi, zi);
[xi, yi, zi] = ndgrid(xi, yi, zi);
disp(max(abs(reshape(fi - (xi + yi + zi), 1, []))) < 1e-12)
[x, y, z] = ndgrid(0:2);
f = x.^2 + y.^2 + z.^2;
disp(interpn(x, y, -z, f, 1.5, 1.5, -1.5) == 7.5)
x = meshgrid(1:4);
disp(interpn(x, 2.5, 2.5, 'nearest') == 3)
z = zeros(3, 3, 3);
zout = zeros(5, 5, 5);
z(:,:,1) = [1 3 5; 3 5 7; 5 7 9];
z(:,:,2) = z(:,:,1) + 2;
z(:,:,3) = z(:,:,2) + 2;
for n = 1:5
    zout(:,:,n) = [1 2 3 4 5; 2 3 4 5 6; 3 4 5 6 7; 4 5 6 7 8; 5 6 7 8 9] + (n - 1);
end
disp(max(abs(reshape(interpn(z) - zout, 1, []))) < 10*eps)
disp(max(abs(reshape(interpn(z, 'linear') - zout, 1, []))) < 10*eps)
disp(max(abs(reshape(interpn(z, 'spline') - zout, 1, []))) < 10*eps)
v = reshape(1:60, 4, 3, 5) + 1i * reshape(60:-1:1, 4, 3, 5);
vi = interpn(v, [0.5 1.5]', [2.5 3.5], [2.25 4.75], 'linear');
disp(isequal(size(vi), [2 2 2]))
