% Text and binary files, fileread, and MAT-file save/load.
name = [tempname '.txt'];
fid = fopen(name, 'w');
fprintf(fid, 'alpha\n');
fprintf(fid, '%d,%d\n', 3, 4);
fclose(fid);
fid = fopen(name, 'r');
while ~feof(fid)
    line = fgetl(fid);
    fprintf('[%s]\n', line);
end
fprintf('%d\n', fgetl(fid));
fclose(fid);
txt = fileread(name);
fprintf('%d\n', numel(txt));
delete(name);
fprintf('%d\n', isfile(name));
[fid, msg] = fopen(fullfile(tempdir, 'no_such_dir_matfuse', 'x.txt'), 'r');
fprintf('%d %d\n', fid, isempty(msg));
bin = [tempname '.bin'];
fid = fopen(bin, 'w');
n = fwrite(fid, [1 2 300], 'int16');
fclose(fid);
fid = fopen(bin);
[v, count] = fread(fid, Inf, 'int16');
fclose(fid);
delete(bin);
fprintf('%d %d | %d %d %d\n', n, count, v);
mat = [tempname '.mat'];
a = [1 2; 3 4];
b = 'text';
c = {1, 'two'};
s.x = int16(5);
save(mat, 'a', 'b', 'c', 's');
clear a b c s
load(mat);
fprintf('%g %g %g %g | %s | %s | %s %d\n', a, b, c{2}, class(s.x), s.x);
S = load(mat, 'a');
fprintf('%d\n', isequal(S.a, [1 2; 3 4]));
delete(mat);
[d, f, e] = fileparts('/home/user/data.csv');
fprintf('%s|%s|%s\n', d, f, e);
