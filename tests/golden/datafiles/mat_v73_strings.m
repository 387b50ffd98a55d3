% save/load of strings, struct arrays and every class through v7 and v7.3.
f = [tempname '.mat'];
s = ["one" "two"; "three" "four"];
p = struct('name', {'ann', 'bob'}, 'age', {31, int8(4)});
L = {true, single(2.5), 1+2i};
save(f, 's', 'p', 'L', '-v7.3');
clear s p L
load(f);
disp([class(s) ' ' char(s(2,1)) ' ' mat2str(size(s))]);
disp([class(p) ' ' p(2).name ' ' num2str(p(1).age) ' ' class(p(2).age)]);
disp([class(L{1}) ' ' class(L{2}) ' ' num2str(L{3})]);
save(f, 's');
t = load(f);
disp([class(t.s) ' ' num2str(isequal(t.s, s))]);
try
    save(f, 's', '-v8');
catch e
    disp(e.identifier);
end
try
    q.('é') = 1;
catch e
    disp(e.identifier);
end
delete(f);
