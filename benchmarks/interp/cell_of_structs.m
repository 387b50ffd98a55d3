% A cell of structs: build, then update through c{k}.field.
c = cell(1, 20000);
for k = 1:20000
    c{k} = struct('id', k, 'hits', 0);
end
for r = 1:4
    for k = 1:20000
        c{k}.hits = c{k}.hits + r;
    end
end
t = 0;
for k = 1:20000
    t = t + c{k}.hits + c{k}.id;
end
fprintf('%d\n', t);
